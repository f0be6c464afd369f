"""The contract's bad-input behaviour, for every registered driver.

Registering a driver puts it under these tests: each damage gives exit 1 (bad
data) or 2 (usage) and one error line naming the file, never a stack trace.
The independent plain callers are left out on purpose: they are a user's
loop, sharing no code with the drivers, and check nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from callbench.driver_options import WARMUP
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.paths import REPO_ROOT
from callbench.registry import DRIVERS
from tests import models_damage as damage
from tests.conftest import SMALL_SAMPLES, require_available, run_driver

DRIVERS_UNDER_TEST = [d for d in DRIVERS if not d.id.startswith("independent-")]
TRACES = ("Traceback", "\tat ", "panicked at", "goroutine ", "    at ")


def contract_args(models: Path, *extra: str) -> list[str]:
    return ["--models", str(models), "--calls", "50", "--warmup", "5", "--repeats", "1", *extra]


def error_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.strip() and not ln.startswith("progress:")]


def assert_one_line(spec: DriverSpec, stderr: str, prefix: str) -> None:
    lines = error_lines(stderr)
    assert lines, f"{spec.id} printed no error"
    assert lines[-1].startswith(prefix), (spec.id, lines[-1])
    assert not any(trace in stderr for trace in TRACES), (spec.id, stderr[-2000:])


def model_damages() -> list[tuple[str, Callable[[Path], bool]]]:
    def missing(path: Path) -> bool:
        path.unlink()
        return True

    def truncated(path: Path) -> bool:
        damage.truncate(path)
        return True

    def garbled(path: Path) -> bool:
        damage.garble(path)
        return True

    return [("missing", missing), ("truncated", truncated), ("garbled", garbled),
            ("wrong-shape", damage.wrong_shape)]  # fmt: skip


@pytest.mark.parametrize("spec", DRIVERS_UNDER_TEST, ids=lambda d: d.id)
@pytest.mark.parametrize(("how", "hurt"), model_damages(), ids=[h for h, _ in model_damages()])
def test_a_damaged_model_fails_naming_the_file(
    spec: DriverSpec, how: str, hurt: Callable[[Path], bool], models_copy: Path
) -> None:
    require_available(spec)
    path = models_copy / spec.artifact
    if not hurt(path):
        pytest.skip(f"{spec.artifact} has no wrong-shape variant")
    done = run_driver(spec, *contract_args(models_copy))
    assert done.returncode == 1, (how, done.stdout[-500:], done.stderr[-500:])
    assert_one_line(spec, done.stderr, f"{spec.id}: error: {path}: ")


INPUT_DAMAGES = {"nan": damage.nan_input, "partial-sample": damage.partial_sample}


@pytest.mark.parametrize("spec", DRIVERS_UNDER_TEST, ids=lambda d: d.id)
@pytest.mark.parametrize("how", INPUT_DAMAGES)
def test_damaged_inputs_fail_naming_the_file(spec: DriverSpec, how: str, models_copy: Path) -> None:
    require_available(spec)
    path = INPUT_DAMAGES[how](models_copy)
    done = run_driver(spec, *contract_args(models_copy))
    assert done.returncode == 1, done.stderr[-500:]
    assert_one_line(spec, done.stderr, f"{spec.id}: error: {path}: ")


@pytest.mark.parametrize("spec", DRIVERS_UNDER_TEST, ids=lambda d: d.id)
@pytest.mark.parametrize(
    "options",
    [("--calls", str(SMALL_SAMPLES + 1)), ("--warmup", "x")],
    ids=["too-few-samples", "warmup-not-a-number"],
)
def test_usage_errors_exit_2_in_one_line(
    spec: DriverSpec, options: tuple[str, str], small_models: Path
) -> None:
    require_available(spec)
    done = run_driver(spec, *contract_args(small_models), *options)
    assert done.returncode == 2, done.stderr[-500:]
    assert_one_line(spec, done.stderr, f"{spec.id}: usage: ")


@pytest.mark.parametrize("spec", DRIVERS_UNDER_TEST, ids=lambda d: d.id)
@pytest.mark.parametrize("command", ["round 51", "dance"])
def test_a_bad_serve_command_is_a_usage_error(
    spec: DriverSpec, command: str, small_models: Path
) -> None:
    require_available(spec)
    done = run_driver(spec, *contract_args(small_models, "--serve"), stdin=f"{command}\n")
    assert done.returncode == 2, done.stderr[-500:]
    assert '"event": "ready"' in done.stdout.replace('"event":"ready"', '"event": "ready"')
    assert_one_line(spec, done.stderr, f"{spec.id}: usage: ")


def test_every_model_artifact_is_in_the_manifest(small_models: Path) -> None:
    """The artifacts the registry names are the exporter's, so damage reaches real files
    (those made on a CUDA device only are exported where there is one)."""
    import torch

    from callbench.model.exported_programs import CUDA_ONLY

    manifest = art.read_manifest(small_models)
    here = set() if torch.cuda.is_available() else CUDA_ONLY
    assert {d.artifact for d in DRIVERS} - here <= set(manifest["files"])
    assert {d.artifact for d in DRIVERS} >= CUDA_ONLY


# One driver of each kit: what the kit itself does, the same in all six.
ONE_PER_KIT = ["python-numpy", "cpp-handwritten", "java-onnxruntime", "rust-handwritten",
               "go-handwritten", "node-onnxruntime"]  # fmt: skip


@pytest.mark.parametrize("driver_id", ONE_PER_KIT)
def test_every_kit_says_its_progress_and_refuses_latencies_without_a_path(
    driver_id: str, small_models: Path
) -> None:
    spec = next(d for d in DRIVERS if d.id == driver_id)
    require_available(spec)
    done = run_driver(spec, *contract_args(small_models, "--serve"), stdin="latencies 3\n")
    assert done.returncode == 2, done.stderr[-500:]
    progress = [ln for ln in done.stderr.splitlines() if ln.startswith("progress:")]
    assert progress == ["progress: loading", "progress: warm-up"], done.stderr[-500:]
    assert error_lines(done.stderr) == [f"{spec.id}: usage: latencies K needs --latencies PATH"], (
        done.stderr[-500:]
    )


@pytest.mark.parametrize("driver_id", ONE_PER_KIT)
def test_every_kit_gives_our_mlp_its_whole_warm_up_and_says_so(
    driver_id: str, small_models: Path
) -> None:
    """The contract's default warm-up, 10,000 calls or 2 s: our MLP's call (microseconds)
    makes all 10,000 in every kit, as before the time budget, and the ready line says so."""
    spec = next(d for d in DRIVERS if d.id == driver_id)
    require_available(spec)
    done = run_driver(spec, "--models", str(small_models), "--calls", "50", "--serve",
                      stdin="end\n")  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    ready = json.loads(done.stdout.splitlines()[0])
    assert ready["event"] == "ready", ready
    assert ready["warmup_calls"] == WARMUP, ready
    assert ready["warmup_ns"] > 0, ready


def contract_words() -> list[tuple[str, list[str], int, str]]:
    """docs/contract.md's table of exact lines: case, arguments, exit status, the line."""
    text = (REPO_ROOT / "docs" / "contract.md").read_text()
    table = text.split("<!-- contract-words -->")[1].split("<!-- /contract-words -->")[0]
    rows = []
    for line in table.strip().splitlines()[2:]:
        case, arguments, status, said = (c.strip() for c in line.strip("|").split(" | "))
        rows.append((case, arguments.strip("`").split(), int(status), said.strip("`")))
    return rows


@pytest.mark.parametrize("driver_id", ONE_PER_KIT)
@pytest.mark.parametrize(("case", "arguments", "status", "said"), contract_words(),
                         ids=[row[0] for row in contract_words()])  # fmt: skip
def test_every_kit_says_the_contracts_words(
    driver_id: str, case: str, arguments: list[str], status: int, said: str, small_models: Path
) -> None:
    spec = next(d for d in DRIVERS if d.id == driver_id)
    require_available(spec)
    done = run_driver(spec, "--models", str(small_models), *arguments)
    line = said.replace("<id>", spec.id)
    assert done.returncode == status, (case, done.stderr[-500:])
    if status == 0:
        assert (done.stdout, error_lines(done.stderr)) == (line + "\n", []), case
    else:
        assert (done.stdout, error_lines(done.stderr)) == ("", [line]), case
