"""Bad input reaches the user as one clear line; other drivers still report."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from callbench import artifacts as art
from callbench.errors import ArtifactError
from tests.conftest import HarnessRun, resign, run_module


def test_bench_before_export_says_to_export(tmp_path: Path) -> None:
    done = run_module("callbench.harness", "--models", str(tmp_path / "none"),
                      "--runs-dir", str(tmp_path / "runs"), "--calls", "10")  # fmt: skip
    assert done.returncode == 1
    assert "nox -s export" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_artifact_that_differs_from_the_manifest_is_named(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    onnx_file = models_copy / art.ONNX
    onnx_file.write_bytes(onnx_file.read_bytes()[:-10] + b"0123456789")
    run = run_harness("--models", str(models_copy), "--language", "python", "--calls", "50",
                      "--repeats", "1")  # fmt: skip
    assert run.returncode == 0
    for driver_id, record in run.records.items():
        if record["artifact"] == art.ONNX:
            assert record["status"] == "failed"
            assert "mlp.onnx" in record["error"] and "sha256" in record["error"]
        else:
            assert record["status"] == "ok", (driver_id, record["error"])


def test_a_truncated_inputs_file_is_named(models_copy: Path, tmp_path: Path) -> None:
    inputs = models_copy / art.INPUTS
    inputs.write_bytes(inputs.read_bytes()[:-3])
    resign(models_copy, art.INPUTS)
    done = run_module("callbench.drivers", "python-numpy", "--models", str(models_copy),
                      "--calls", "10")  # fmt: skip
    assert done.returncode == 1
    assert "inputs.f32" in done.stderr and "whole number of samples" in done.stderr


def test_nan_among_the_inputs_is_named(models_copy: Path) -> None:
    inputs = models_copy / art.INPUTS
    data = np.fromfile(inputs, dtype="<f4")
    data[7] = np.nan
    data.tofile(inputs)
    done = run_module("callbench.drivers", "python-onnxruntime", "--models", str(models_copy),
                      "--calls", "10")  # fmt: skip
    assert done.returncode == 1
    assert "inputs.f32" in done.stderr and "sample 3 is NaN or Inf" in done.stderr


@pytest.mark.parametrize("calls", ["0", "-5", "ten"])
def test_out_of_range_options_are_usage_errors(small_models: Path, calls: str) -> None:
    done = run_module("callbench.drivers", "python-numpy", "--models", str(small_models),
                      "--calls", calls)  # fmt: skip
    assert done.returncode == 2
    assert "usage:" in done.stderr and "Traceback" not in done.stderr


def test_a_run_larger_than_the_inputs_is_a_usage_error(
    run_harness: Callable[..., HarnessRun],
) -> None:
    run = run_harness("--language", "python", "--calls", "10", "--batch", "1000000")
    assert run.returncode == 2
    assert "holds 20000" in run.stderr


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(MARKER),))


MARKER = Path("/nonexistent")


def test_a_malicious_state_dict_runs_no_code(tmp_path: Path) -> None:
    global MARKER
    MARKER = tmp_path / "pwned"
    evil = tmp_path / "evil.pt"
    torch.save({"a.weight": _Boom()}, evil, pickle_protocol=pickle.DEFAULT_PROTOCOL)
    with pytest.raises(ArtifactError, match="not a loadable weights-only state_dict"):
        art.load_state_dict(evil)
    assert not MARKER.exists()


def test_a_state_dict_of_another_architecture_is_named(tmp_path: Path) -> None:
    other = tmp_path / "other.pt"
    torch.save(torch.nn.Linear(3, 4).state_dict(), other)
    with pytest.raises(ArtifactError, match="keys"):
        art.load_state_dict(other)


def test_the_driver_dispatcher_names_unknown_ids() -> None:
    done = subprocess.run([sys.executable, "-m", "callbench.drivers", "python-nope"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2 and "python-eager" in done.stderr


CORRUPTIONS = {
    "truncated": lambda data: data[: len(data) // 2],
    "garbled": lambda data: bytes(b ^ 0x5A for b in data),
}
PYTHON_MODELS = {
    "python-eager": art.STATE_DICT,
    "python-torchscript": art.TORCHSCRIPT,
    "python-onnxruntime": art.ONNX,
    "python-numpy": art.WEIGHTS,
}


# Raw weights have no structure to check: garbled ones are caught by the manifest's
# sha256 (above) or by the outputs check, not by the driver; truncation is.
DAMAGES = [(d, how) for d in sorted(PYTHON_MODELS) for how in sorted(CORRUPTIONS)
           if (d, how) != ("python-numpy", "garbled")]  # fmt: skip


@pytest.mark.parametrize(("driver_id", "how"), DAMAGES)
def test_a_damaged_model_fails_the_driver_with_one_line(
    run_harness: Callable[..., HarnessRun], models_copy: Path, driver_id: str, how: str
) -> None:
    """The manifest is made to agree, so the driver's own loading must catch it."""
    name = PYTHON_MODELS[driver_id]
    path = models_copy / name
    path.write_bytes(CORRUPTIONS[how](path.read_bytes()))
    resign(models_copy, name)
    run = run_harness("--models", str(models_copy), "--only", driver_id, "--calls", "20",
                      "--repeats", "1", "--warmup", "0")  # fmt: skip
    record = run.records[driver_id]
    assert record["status"] == "failed"
    assert str(path) in record["error"] and "\n" not in record["error"]
    assert "Traceback" not in record["error"]
