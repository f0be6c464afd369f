"""Artifacts the harness and the drivers refuse: before export, unlike the manifest, unsafe."""

from __future__ import annotations

import json
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch

from callbench.errors import DataError
from callbench.model import artifacts as art
from callbench.registry import lookup
from tests.conftest import HarnessRun, resign, run_module


def test_a_run_before_export_says_to_export(tmp_path: Path) -> None:
    done = run_module("callbench.cli", "run", "--models", str(tmp_path / "none"),
                      "--runs-dir", str(tmp_path / "runs"), "--calls", "10")  # fmt: skip
    assert done.returncode == 1
    assert "nox -s export" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    args = ["run", "--models", str(tmp_path / "none"), "--runs-dir", str(tmp_path / "runs")]
    quiet = run_module("callbench.cli", *args)
    loud = run_module("callbench.cli", *args, "--debug")
    assert quiet.returncode == loud.returncode == 1
    assert "Traceback" not in quiet.stderr and "Traceback" in loud.stderr


def test_an_artifact_that_differs_from_the_manifest_is_named(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    onnx_file = models_copy / art.ONNX
    onnx_file.write_bytes(onnx_file.read_bytes()[:-10] + b"0123456789")
    run = run_harness("--models", str(models_copy), "--language", "python", "--calls", "50",
                      "--rounds", "1")  # fmt: skip
    assert run.returncode == 0
    for driver_id, record in run.records.items():
        if record.artifact == art.ONNX:
            assert record.status == "failed"
            assert "mlp.onnx" in str(record.error) and "sha256" in str(record.error)
        elif lookup(driver_id).available() is None:  # a GPU row without a device is skipped
            assert record.status == "ok", (driver_id, record.error)


def test_a_run_larger_than_the_inputs_is_a_usage_error(
    run_harness: Callable[..., HarnessRun],
) -> None:
    run = run_harness("--only", "python-numpy", "--calls", "10", "--batch", "1000000")
    assert run.returncode == 2
    assert "holds 20000" in run.stderr and "Traceback" not in run.stderr


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(MARKER),))


MARKER = Path("/nonexistent")


def test_a_malicious_state_dict_runs_no_code(tmp_path: Path) -> None:
    global MARKER
    MARKER = tmp_path / "pwned"
    evil = tmp_path / "evil.pt"
    torch.save({"a.weight": _Boom()}, evil, pickle_protocol=pickle.DEFAULT_PROTOCOL)
    with pytest.raises(DataError, match="not a loadable weights-only state_dict"):
        art.load_state_dict(evil)
    assert not MARKER.exists()


def test_a_state_dict_of_another_architecture_is_named(tmp_path: Path) -> None:
    other = tmp_path / "other.pt"
    torch.save(torch.nn.Linear(3, 4).state_dict(), other)
    with pytest.raises(DataError, match="keys"):
        art.load_state_dict(other)


def test_the_python_kit_names_a_bad_entry() -> None:
    done = run_module("callbench.driverkit", "python-nope")
    assert done.returncode == 2 and "<module:function>" in done.stderr
    done = run_module("callbench.driverkit", "python-nope", "nope:setup")
    assert done.returncode == 2 and "no module callbench.drivers.nope" in done.stderr
    done = run_module("callbench.driverkit", "python-nope", "numpy_forward:nope")
    assert done.returncode == 2 and "has no function nope" in done.stderr


def test_a_width_that_was_not_exported_is_a_usage_error(
    run_harness: Callable[..., HarnessRun], small_models: Path
) -> None:
    run = run_harness("--widths", "8,32", "--only", "python-numpy", "--calls", "50")
    assert run.returncode == 2 and run.run_dir is None
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert f"--widths 32: not exported ({small_models / art.FAMILY} lists 8, 16)" in run.stderr


def _family_entry(models: Path, hidden: int) -> tuple[dict[str, Any], dict[str, Any]]:
    family = json.loads((models / art.FAMILY).read_text())
    return family, next(e for e in family["widths"] if e["hidden"] == hidden)


def test_a_width_whose_files_disagree_with_family_json_is_named(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    family, entry = _family_entry(models_copy, 16)
    entry["files"][art.ONNX] = "0" * 64
    (models_copy / art.FAMILY).write_text(json.dumps(family))
    run = run_harness("--models", str(models_copy), "--widths", "16", "--only", "python-numpy")
    assert run.returncode == 1 and run.run_dir is None
    assert "Traceback" not in run.stderr
    assert f"{models_copy / 'widths/16' / art.ONNX}: sha256 does not match" in run.stderr
    assert f"{models_copy / art.FAMILY}'s width 16" in run.stderr


def test_a_width_whose_weights_are_another_models_is_named(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    """Signed consistently everywhere, the reference's weights in width 16's folder are still
    caught: their size is not width 16's."""
    folder = models_copy / "widths" / "16"
    shutil.copy(models_copy / art.WEIGHTS, folder / art.WEIGHTS)
    resign(folder, art.WEIGHTS)
    family, entry = _family_entry(models_copy, 16)
    entry["files"][art.WEIGHTS] = art.sha256_of(folder / art.WEIGHTS)
    (models_copy / art.FAMILY).write_text(json.dumps(family))
    run = run_harness("--models", str(models_copy), "--widths", "16", "--only", "python-numpy")
    assert run.returncode == 1 and run.run_dir is None
    assert f"{folder / art.WEIGHTS}: is 420 bytes, width 16 has 337 floats" in run.stderr


def test_a_width_exported_before_contract_3_is_named_before_any_driver_runs(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    """A models/widths folder older than the tensors table stops the sweep at its start,
    not after the reference width's rounds."""
    manifest_path = models_copy / "widths" / "16" / art.MANIFEST
    manifest = json.loads(manifest_path.read_text())
    del manifest["tensors"]
    manifest_path.write_text(json.dumps(manifest))
    run = run_harness("--models", str(models_copy), "--widths", "8,16", "--only", "python-numpy")
    assert run.returncode == 1 and run.run_dir is None
    assert "Traceback" not in run.stderr
    assert f"{manifest_path}: has no 'tensors' table (contract 3)" in run.stderr
