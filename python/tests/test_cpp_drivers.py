"""The C++ drivers end to end: through the harness (verified outputs) and, for
bad input, both through the harness and directly against the contract
(exit code, one stderr line naming the file)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench import artifacts as art
from callbench.catalogue_cpp import BUILD_HINT, DRIVERS, binary
from callbench.harness import ATOL
from tests.conftest import HarnessRun, assert_verified, resign

IDS = [d.id for d in DRIVERS]
BY_ID = {d.id: d for d in DRIVERS}

pytestmark = pytest.mark.cpp


def built(driver_id: str) -> bool:
    return BY_ID[driver_id].available() is None


def require_built(*ids: str) -> None:
    missing = [i for i in ids if not built(i)]
    if missing:
        pytest.skip(f"C++ drivers not built ({', '.join(missing)}): {BUILD_HINT}")


def built_ids() -> list[str]:
    ids = [i for i in IDS if built(i)]
    if not ids:
        pytest.skip(f"no C++ driver built: {BUILD_HINT}")
    return ids


def run_binary(driver_id: str, models: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary(driver_id)), "--models", str(models), "--calls", "100", "--warmup", "5",
         "--repeats", "1", *extra],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_catalogue_has_the_issue_ids() -> None:
    for driver_id in ("cpp-torchscript", "cpp-libtorch", "cpp-onnxruntime", "cpp-handwritten"):
        assert driver_id in IDS
    assert all(d.language == "C++" for d in DRIVERS)


@pytest.mark.parametrize("batch", [1, 3])
def test_every_cpp_driver_is_verified_ok(
    run_harness: Callable[..., HarnessRun], batch: int
) -> None:
    ids = built_ids()
    run = run_harness("--language", "cpp", "--calls", "2000", "--warmup", "50",
                      "--repeats", "2", "--batch", str(batch))  # fmt: skip
    assert_verified(run, ids, repeats=2, batch=batch)


def test_threads_option_reaches_the_record(run_harness: Callable[..., HarnessRun]) -> None:
    require_built("cpp-onnxruntime", "cpp-libtorch")
    run = run_harness("--only", "cpp-onnxruntime", "--only", "cpp-libtorch", "--calls", "200",
                      "--repeats", "1", "--threads", "2")  # fmt: skip
    for driver_id in ("cpp-onnxruntime", "cpp-libtorch"):
        record = run.records[driver_id]
        assert record["status"] == "ok", record["error"]
        assert record["threads"] == 2


def test_outputs_and_latencies_files_follow_the_contract(
    small_models: Path, tmp_path: Path
) -> None:
    require_built("cpp-handwritten")
    outputs, latencies = tmp_path / "out.f32", tmp_path / "lat.i64"
    done = run_binary("cpp-handwritten", small_models, "--batch", "2",
                      "--outputs", str(outputs), "--latencies", str(latencies))  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["driver"] == "cpp-handwritten" and result["calls"] == 100
    assert len(result["repeat_ns"]) == 1 and result["load_ns"] > 0
    got = np.fromfile(outputs, dtype="<f4")
    want = np.fromfile(small_models / art.REFERENCE, dtype="<f4")[:200]
    np.testing.assert_allclose(got, want, atol=ATOL)
    assert np.fromfile(latencies, dtype="<i8").shape == (100,)


# ----------------------------------------------------------------- bad input

# (driver, file it reads that the damage goes to)
MODEL_OF = {d.id: d.artifact for d in DRIVERS}


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garble(path: Path) -> None:
    path.write_bytes(b"this is not a model" * 10)


@pytest.mark.parametrize("driver_id", IDS)
@pytest.mark.parametrize("damage", [truncate, garble], ids=["truncated", "garbled"])
def test_corrupt_model_fails_naming_the_file(
    driver_id: str, damage: Callable[[Path], None], models_copy: Path
) -> None:
    require_built(driver_id)
    path = models_copy / MODEL_OF[driver_id]
    damage(path)
    done = run_binary(driver_id, models_copy)
    assert done.returncode == 1, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{driver_id}: error: {path}: "), lines[0]


@pytest.mark.parametrize("driver_id", IDS)
def test_missing_model_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / MODEL_OF[driver_id]
    path.unlink()
    done = run_binary(driver_id, models_copy)
    assert done.returncode == 1
    hint = "missing; run `nox -s export` first"
    assert done.stderr.strip() == f"{driver_id}: error: {path}: {hint}"


@pytest.mark.parametrize("driver_id", IDS)
def test_nan_in_inputs_fails_naming_the_file(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / art.INPUTS
    data = np.fromfile(path, dtype="<f4")
    data[2 * 7 + 1] = np.nan
    data.tofile(path)
    done = run_binary(driver_id, models_copy)
    assert done.returncode == 1
    problem = "sample 7 is NaN or Inf"
    assert done.stderr.strip() == f"{driver_id}: error: {path}: {problem}"


def test_inputs_of_wrong_size_fail(models_copy: Path) -> None:
    require_built("cpp-onnxruntime")
    path = models_copy / art.INPUTS
    path.write_bytes(path.read_bytes()[:-4])  # half a sample at the end
    done = run_binary("cpp-onnxruntime", models_copy)
    assert done.returncode == 1
    assert done.stderr.strip().startswith(f"cpp-onnxruntime: error: {path}: size ")
    assert "not a whole number of samples" in done.stderr


def test_too_few_samples_is_a_usage_error(small_models: Path) -> None:
    require_built("cpp-handwritten")
    done = run_binary("cpp-handwritten", small_models, "--calls", "20001")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("cpp-handwritten: usage: --calls 20001 x --batch 1")


def test_bad_option_is_a_usage_error(small_models: Path) -> None:
    require_built("cpp-handwritten")
    done = run_binary("cpp-handwritten", small_models, "--repeats", "zero")
    assert done.returncode == 2
    assert done.stderr.strip() == "cpp-handwritten: usage: --repeats needs an integer, got 'zero'"


def test_harness_records_a_broken_driver_as_failed_and_goes_on(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    """The damage passes the harness's manifest check (re-signed), so only the
    drivers can notice it: each fails with its one line, the others still run."""
    ids = built_ids()
    garble(models_copy / "mlp.onnx")
    resign(models_copy, "mlp.onnx")
    run = run_harness("--language", "cpp", "--models", str(models_copy), "--calls", "200",
                      "--repeats", "1")  # fmt: skip
    assert run.returncode == 0, run.stderr
    for driver_id in ids:
        record = run.records[driver_id]
        if MODEL_OF[driver_id] == "mlp.onnx":
            assert record["status"] == "failed"
            assert record["error"].startswith(f"{driver_id}: error: {models_copy / 'mlp.onnx'}: ")
        else:
            assert record["status"] == "ok", (driver_id, record["error"])


def test_harness_records_nan_inputs_as_failed(
    run_harness: Callable[..., HarnessRun], models_copy: Path
) -> None:
    ids = built_ids()
    path = models_copy / art.INPUTS
    data = np.fromfile(path, dtype="<f4")
    data[0] = np.inf
    data.tofile(path)
    resign(models_copy, art.INPUTS)
    run = run_harness("--language", "cpp", "--models", str(models_copy), "--calls", "100",
                      "--repeats", "1")  # fmt: skip
    assert run.returncode == 0, run.stderr
    for driver_id in ids:
        record = run.records[driver_id]
        assert record["status"] == "failed"
        assert f"{path}: sample 0 is NaN or Inf" in record["error"]


def test_second_build_is_incremental(repo_root: Path) -> None:
    """Nothing changed since the build: the build script only re-checks."""
    require_built(*IDS[:1])
    import torch

    site = Path(torch.__file__).resolve().parents[1]
    deps = repo_root / "build" / "cpp" / "deps" / "site-packages"
    if not deps.is_symlink() or deps.resolve() != site:
        pytest.skip("build/cpp was last built by another Python environment")
    done = subprocess.run(
        [sys.executable, str(repo_root / "scripts" / "build_cpp.py")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "no work to do" in done.stdout


def identity_torchscript(path: Path) -> None:
    """A TorchScript module that answers [B, 2] instead of [B, 1]."""
    import warnings

    import torch

    class Identity(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 1.0

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(Identity()), str(path))


def identity_onnx(path: Path) -> None:
    """An ONNX model with the right names that answers [B, 2] instead of [B, 1]."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])],
        "wrong_shape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.save(model, str(path))


@pytest.mark.parametrize("driver_id", [i for i in IDS if MODEL_OF[i] != "mlp_weights.f32"])
def test_model_of_the_wrong_shape_fails(driver_id: str, models_copy: Path) -> None:
    require_built(driver_id)
    path = models_copy / MODEL_OF[driver_id]
    (identity_onnx if path.suffix == ".onnx" else identity_torchscript)(path)
    done = run_binary(driver_id, models_copy, "--batch", "3")
    assert done.returncode == 1, done.stdout
    assert done.stderr.strip().startswith(f"{driver_id}: error: {path}: model answers with [3, 2]")
    assert "expected [3, 1]" in done.stderr
