"""The Java drivers end to end: hosted in a JVM through JPype (callbench.jvm_host),
verified by the harness, and held to the contract on bad input (exit status,
one stderr line naming the file, no stack trace)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench import artifacts as art
from callbench.catalogue_java import DRIVERS
from callbench.harness import ATOL
from tests.conftest import HarnessRun, assert_verified, resign

pytestmark = pytest.mark.java

BY_ID = {d.id: d for d in DRIVERS}
# The drivers of this suite (issue 4); other Java drivers join the harness run below.
OWN_IDS = ["java-onnxruntime", "java-onnxruntime-reuse", "java-djl", "java-djl-reuse"]


def require_built(*ids: str) -> None:
    reasons = {i: r for i in ids if (r := BY_ID[i].available()) is not None}
    if reasons:
        pytest.skip("; ".join(f"{i}: {r}" for i, r in reasons.items()))


def built_ids() -> list[str]:
    ids = [d.id for d in DRIVERS if d.available() is None]
    if not ids:
        pytest.skip(f"no Java driver built: {DRIVERS[0].available()}")
    return ids


def run_host(
    driver_id: str, models: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The driver as the harness starts it, with small contract options."""
    command = [*BY_ID[driver_id].command(), "--models", str(models), "--calls", "100",
               "--warmup", "5", "--repeats", "1", *extra]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env=env
    )


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a failed run (no stack trace, no other noise)."""
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "\tat " not in done.stderr
    return lines[0]


def test_catalogue_has_the_issue_ids() -> None:
    for driver_id in OWN_IDS:
        assert BY_ID[driver_id].language == "Java"
    assert BY_ID["java-onnxruntime"].artifact == art.ONNX
    assert BY_ID["java-djl"].artifact == art.TORCHSCRIPT


@pytest.mark.parametrize("batch", [1, 3])
def test_every_java_driver_is_verified_ok(
    run_harness: Callable[..., HarnessRun], batch: int
) -> None:
    ids = built_ids()
    run = run_harness("--language", "java", "--calls", "2000", "--warmup", "300",
                      "--repeats", "2", "--batch", str(batch))  # fmt: skip
    assert_verified(run, ids, repeats=2, batch=batch)
    for driver_id in ids:
        assert run.records[driver_id]["warmup"] == 300
        assert run.records[driver_id]["latency_ns"] is not None


def test_direct_run_follows_the_contract(small_models: Path, tmp_path: Path) -> None:
    require_built("java-onnxruntime-reuse")
    outputs, latencies = tmp_path / "out.f32", tmp_path / "lat.i64"
    done = run_host("java-onnxruntime-reuse", small_models, "--batch", "2", "--threads", "2",
                    "--outputs", str(outputs), "--latencies", str(latencies))  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["driver"] == "java-onnxruntime-reuse" and result["language"] == "Java"
    assert result["calls"] == 100 and result["batch"] == 2 and result["threads"] == 2
    assert result["warmup"] == 5 and len(result["repeat_ns"]) == 1 and result["load_ns"] > 0
    got = np.fromfile(outputs, dtype="<f4")
    want = np.fromfile(small_models / art.REFERENCE, dtype="<f4")[:200]
    np.testing.assert_allclose(got, want, atol=ATOL)
    assert np.fromfile(latencies, dtype="<i8").shape == (100,)


def test_djl_runs_offline_and_writes_nothing_to_home(small_models: Path, tmp_path: Path) -> None:
    """DJL gets LibTorch from the jars on the classpath (offline) and keeps its
    cache under java/target, so a fresh $HOME stays empty."""
    require_built("java-djl")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    env.pop("DJL_CACHE_DIR", None)
    env.pop("ENGINE_CACHE_DIR", None)
    done = run_host("java-djl", small_models, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["notes"]["libtorch_version"]
    assert list(home.iterdir()) == []


@pytest.mark.parametrize("threads", [1, 2])
def test_threads_option_reaches_libtorch(small_models: Path, threads: int) -> None:
    """DJL reads its thread settings once, at engine load; LibTorch reports what it uses."""
    require_built("java-djl-reuse")
    done = run_host("java-djl-reuse", small_models, "--threads", str(threads))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["threads"] == threads
    assert result["notes"]["intra_op_threads"] == threads


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("driver_id", OWN_IDS)
def test_missing_model_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / BY_ID[driver_id].artifact
    path.unlink()
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1
    assert one_error_line(done) == f"{driver_id}: error: {path}: missing; run `nox -s export` first"


def garble(path: Path) -> None:
    path.write_bytes(b"this is not a model" * 10)


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("damage", [garble, truncate], ids=["garbled", "truncated"])
def test_corrupt_model_is_a_failed_record_naming_the_file(
    run_harness: Callable[..., HarnessRun], models_copy: Path, damage: Callable[[Path], None]
) -> None:
    require_built(*OWN_IDS)
    for name in (art.ONNX, art.TORCHSCRIPT):
        damage(models_copy / name)
        resign(models_copy, name)
    run = run_harness("--only", "java-onnxruntime", "--only", "java-djl",
                      "--models", str(models_copy), "--calls", "100", "--repeats", "1")  # fmt: skip
    assert run.returncode == 0, run.stderr
    for driver_id in OWN_IDS:
        record = run.records[driver_id]
        path = models_copy / BY_ID[driver_id].artifact
        assert record["status"] == "failed"
        assert record["error"].startswith(f"{driver_id}: error: {path}: cannot be loaded: "), (
            record["error"]
        )


@pytest.mark.parametrize("driver_id", OWN_IDS)
def test_corrupt_model_exits_one_without_stack_trace(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / BY_ID[driver_id].artifact
    garble(path)
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1, done.stdout
    assert one_error_line(done).startswith(f"{driver_id}: error: {path}: cannot be loaded: ")


@pytest.mark.parametrize("driver_id", OWN_IDS)
def test_nan_in_inputs_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / art.INPUTS
    data = np.fromfile(path, dtype="<f4")
    data[2 * 7 + 1] = np.nan
    data.tofile(path)
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1
    assert one_error_line(done) == f"{driver_id}: error: {path}: sample 7 is NaN or Inf"


@pytest.mark.parametrize("driver_id", ["java-onnxruntime", "java-djl"])
def test_inputs_of_wrong_size_fail_naming_the_file(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / art.INPUTS
    path.write_bytes(path.read_bytes()[:-4])  # half a sample at the end
    size = path.stat().st_size
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1
    assert one_error_line(done) == (
        f"{driver_id}: error: {path}: {size} bytes is not a whole number of samples (8 bytes each)"
    )


def test_too_few_samples_is_a_usage_error(small_models: Path) -> None:
    require_built("java-onnxruntime")
    done = run_host("java-onnxruntime", small_models, "--calls", "20001")
    assert done.returncode == 2
    assert one_error_line(done).startswith(
        "java-onnxruntime: usage: --calls 20001 x --batch 1 needs 20001 samples"
    )


def test_bad_option_is_a_usage_error(small_models: Path) -> None:
    require_built("java-onnxruntime")
    done = run_host("java-onnxruntime", small_models, "--repeats", "zero")
    assert done.returncode == 2
    assert one_error_line(done) == "java-onnxruntime: usage: --repeats needs an integer, got 'zero'"


def test_host_reports_an_unknown_class_in_one_line(small_models: Path) -> None:
    require_built("java-onnxruntime")
    done = subprocess.run(
        [*BY_ID["java-onnxruntime"].command()[:3], "--main", "dev.callbench.drivers.Nope", "--",
         "--models", str(small_models)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert one_error_line(done).startswith("jvm_host: error: dev.callbench.drivers.Nope: no such")
