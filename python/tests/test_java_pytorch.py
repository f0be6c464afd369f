"""java-pytorch end to end: the org.pytorch API (pytorch_java_only) on the
project's own JNI peer (java/native), hosted through JPype, verified by the
harness; and the contract on bad input."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench import artifacts as art
from callbench.catalogue_java import DRIVERS, PYTORCH_NATIVE_LIB
from callbench.harness import ATOL
from tests.conftest import HarnessRun

pytestmark = pytest.mark.java

BY_ID = {d.id: d for d in DRIVERS}
IDS = ["java-pytorch", "java-pytorch-reuse"]


@pytest.fixture(autouse=True)
def built() -> None:
    reasons = [f"{i}: {r}" for i in IDS if (r := BY_ID[i].available()) is not None]
    if reasons:
        pytest.skip("; ".join(reasons))


def run_host(
    driver_id: str, models: Path, *extra: str, command: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The driver as the harness starts it, with small contract options."""
    argv = [*(command or BY_ID[driver_id].command()), "--models", str(models), "--calls", "200",
            "--warmup", "10", "--repeats", "1", *extra]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "\tat " not in done.stderr
    return lines[0]


def test_catalogue_entries() -> None:
    for driver_id in IDS:
        spec = BY_ID[driver_id]
        assert spec.language == "Java" and spec.artifact == art.TORCHSCRIPT
        command = list(spec.command())
        # The JVM must be told where libpytorch_jni.so / libfbjni.so are.
        assert command[command.index("--native-lib-dir") + 1] == str(PYTORCH_NATIVE_LIB)


@pytest.mark.parametrize("batch", [1, 4])
def test_harness_verifies_both_variants(run_harness: Callable[..., HarnessRun], batch: int) -> None:
    run = run_harness("--language", "java", "--only", "java-pytorch", "--calls", "2000",
                      "--warmup", "200", "--repeats", "2", "--batch", str(batch))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert set(run.records) == set(IDS)
    for driver_id in IDS:
        record = run.records[driver_id]
        assert record["status"] == "ok", (driver_id, record["error"])
        assert record["max_abs_error"] <= ATOL
        assert len(record["per_call_ns"]) == 2 and record["batch"] == batch
        assert "pytorch_java_only 1.13.1" in record["runtime_version"]


def test_direct_run_writes_the_reference_outputs(small_models: Path, tmp_path: Path) -> None:
    outputs = tmp_path / "out.f32"
    done = run_host("java-pytorch", small_models, "--batch", "3", "--threads", "2",
                    "--outputs", str(outputs))  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["driver"] == "java-pytorch" and result["threads"] == 2
    assert result["calls"] == 200 and result["batch"] == 3 and result["load_ns"] > 0
    got = np.fromfile(outputs, dtype="<f4")
    want = np.fromfile(small_models / art.REFERENCE, dtype="<f4")[:600]
    np.testing.assert_allclose(got, want, atol=ATOL)


@pytest.mark.parametrize("driver_id", IDS)
def test_missing_model_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    path = models_copy / art.TORCHSCRIPT
    path.unlink()
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1
    assert one_error_line(done) == f"{driver_id}: error: {path}: missing; run `nox -s export` first"


@pytest.mark.parametrize("driver_id", IDS)
def test_corrupt_model_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    path = models_copy / art.TORCHSCRIPT
    path.write_bytes(b"not a TorchScript archive" * 8)
    done = run_host(driver_id, models_copy)
    assert done.returncode == 1, done.stdout
    assert one_error_line(done).startswith(f"{driver_id}: error: {path}: cannot be loaded: ")


def test_model_of_the_wrong_shape_is_refused(models_copy: Path) -> None:
    # roundtrip.pt's forward is x + 1: [B, 2] in, [B, 2] out, not [B, 1].
    roundtrip = PYTORCH_NATIVE_LIB.parent / "test-modules" / "roundtrip.pt"
    if not roundtrip.is_file():
        pytest.skip(f"{roundtrip} missing: run python scripts/build_java_native.py")
    path = models_copy / art.TORCHSCRIPT
    path.write_bytes(roundtrip.read_bytes())
    done = run_host("java-pytorch", models_copy)
    assert done.returncode == 1
    assert one_error_line(done) == (
        f"java-pytorch: error: {path}: gives output shape [1, 2] for a batch of 1, expected [1, 1]"
    )


def test_without_the_native_peer_the_error_says_so(small_models: Path, tmp_path: Path) -> None:
    """The seed's failure ("no pytorch_jni in java.library.path"), as one clear line."""
    empty = tmp_path / "no-natives"
    empty.mkdir()
    command = list(BY_ID["java-pytorch"].command())
    command[command.index("--native-lib-dir") + 1] = str(empty)
    done = run_host("java-pytorch", small_models, command=command)
    assert done.returncode == 1
    line = one_error_line(done)
    assert line.startswith("java-pytorch: error: ") and "pytorch_jni" in line, line
