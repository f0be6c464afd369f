"""Models people call in a loop (contract 3), through `callbench run --onnx`: an image
model, a policy-value net, a classifier with an int64 label, a two-input token model and
a float16 model, each verified through every ONNX driver of the six kits (Python, C++,
Java, Rust, Go and Node.js); and each way a model or an inputs file is refused, as the
user sees it (one line, exit 2, no run folder)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench.model import artifacts as art
from callbench.model import user_onnx
from tests import onnx_models
from tests.conftest import HarnessRun
from tests.test_user_onnx import (
    CPP_ONNX,
    GO_ONNX,
    JAVA_ONNX,
    NODE_ONNX,
    PYTHON_ONNX,
    RUST_ONNX,
    run_users_model,
)

OUTPUTS = {
    "image": {"logits": ("float32", [10])},
    "policy_value": {"policy": ("float32", [64]), "value": ("float32", [1])},
    "classifier": {"label": ("int64", []), "probabilities": ("float32", [3])},
    "tokens": {"logits": ("float32", [2])},
    "float16": {"y": ("float16", [3])},
}


@pytest.mark.parametrize("name", sorted(onnx_models.MODELS))
def test_each_model_is_prepared_with_a_file_per_tensor(name: str, tmp_path: Path) -> None:
    path = onnx_models.MODELS[name](tmp_path / f"{name}.onnx")
    folder = user_onnx.prepare(path)
    signature = art.signature(folder)
    got = {t.name: (t.dtype, list(t.shape)) for t in signature.outputs}
    assert got == OUTPUTS[name]
    for tensor in (*signature.inputs, *signature.outputs):
        values = np.fromfile(folder / tensor.file, dtype=tensor.numpy_dtype)
        assert values.size == len(values) and values.size % max(1, tensor.sample_size) == 0
    manifest = json.loads((folder / art.MANIFEST).read_text())
    assert "agrees on the first" in manifest[user_onnx.ORIGIN]["cross_check"]
    assert all(t.tolerance is not None for t in signature.outputs)
    if name == "classifier":  # the label must be equal; the probabilities within 1e-4
        assert [t.tolerance for t in signature.outputs] == [0.0, 1e-4]
        assert [t.file for t in signature.outputs] == ["reference.i64", "reference1.f32"]
    if name == "tokens":
        assert [t.file for t in signature.inputs] == ["inputs.i64", "inputs1.i64"]


# The drivers that read every tensor, by kit: each model goes through each group.
READ_EVERY_TENSOR = {
    "python": PYTHON_ONNX,
    "cpp": CPP_ONNX,
    "java": JAVA_ONNX,
    "rust": RUST_ONNX,
    "go": GO_ONNX,
    "node": NODE_ONNX,
}


@pytest.mark.parametrize("kit", sorted(READ_EVERY_TENSOR))
def test_every_other_dtype_goes_both_ways_through_every_onnx_driver_of_a_kit(
    kit: str, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    """float64, int32, int8, uint8 and bool in and out: no binding refuses a dtype."""
    path = onnx_models.other_dtypes(tmp_path / "dtypes.onnx")
    drivers = READ_EVERY_TENSOR[kit]
    run = run_users_model(path, drivers, run_harness, "--batch", "3")
    for driver_id in drivers:
        errors = run.records[driver_id].output_errors or {}
        assert set(errors) == {"a_out", "b_out", "c_out", "d_out", "e_out"}, driver_id
        exact = ("b_out", "c_out", "d_out", "e_out")  # integers and bool: equal, or not verified
        assert all(errors[n] == {"max_abs_error": 0.0, "tolerance": 0.0} for n in exact), driver_id


def test_every_onnx_driver_reads_every_tensor() -> None:
    """No ONNX driver is left to skip a model of other tensors: each is in a group above."""
    from callbench.registry import DRIVERS
    from callbench.roles import CALLERS_ONLY

    onnx_drivers = {
        s.id
        for s in DRIVERS
        if s.artifact == art.ONNX and CALLERS_ONLY not in s.roles and not s.mlp_only
    }
    assert onnx_drivers == {d for group in READ_EVERY_TENSOR.values() for d in group}


@pytest.mark.parametrize("kit", sorted(READ_EVERY_TENSOR))
@pytest.mark.parametrize("name", sorted(onnx_models.MODELS))
def test_each_model_is_verified_through_every_onnx_driver_of_a_kit(
    name: str, kit: str, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = onnx_models.MODELS[name](tmp_path / f"{name}.onnx")
    drivers = READ_EVERY_TENSOR[kit]
    run = run_users_model(path, drivers, run_harness, "--batch", "2")
    for driver_id in drivers:
        record = run.records[driver_id]
        if len(OUTPUTS[name]) > 1:
            assert set(record.output_errors or {}) == set(OUTPUTS[name]), driver_id
    if name == "float16" and f"{kit}-openvino" in drivers:
        assert "computed in f32" in run.records[f"{kit}-openvino"].notes["float16"]


def test_a_model_with_a_fixed_batch_runs_only_at_that_batch(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = onnx_models.fixed_batch(tmp_path / "four.onnx", 4)
    run = run_harness("--onnx", str(path), "--only", "python-onnxruntime", "--rounds", "1",
                      "--round-time", "0.01", "--warmup", "10")  # fmt: skip
    assert run.returncode == 2 and run.run_dir is None
    fixed = "the model takes batches of 4 only (its batch dimension is fixed)"
    assert run.stderr.strip().splitlines() == [
        f"callbench: usage: {path}: {fixed}; run it with --batch 4"
    ]
    run_users_model(path, ["python-onnxruntime", "python-onnxruntime-iobinding"], run_harness,
                    "--batch", "4")  # fmt: skip


def test_inputs_of_a_token_model_may_come_from_the_user(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = onnx_models.tokens(tmp_path / "tokens.onnx")
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 10, size=(50, 16), dtype=np.int64)
    np.savez(tmp_path / "mine.npz", input_ids=ids, attention_mask=np.ones((50, 16), np.int64))
    run = run_users_model(path, ["python-onnxruntime"], run_harness, "--inputs",
                          str(tmp_path / "mine.npz"))  # fmt: skip
    assert run.run_dir is not None
    model = run.run_dir / user_onnx.FOLDER
    assert np.array_equal(np.fromfile(model / "inputs.i64", dtype="<i8").reshape(50, 16), ids)


REFUSED = {
    "zipmap": (onnx_models.zipmap, "output 'output_probability' is a sequence, not a tensor; "
               "export the classifier without ZipMap: skl2onnx's to_onnx(model, ..., "
               'options={id(model): {"zipmap": False}})'),
    "unnamed": (onnx_models.unnamed_input, "has an input without a name; callbench feeds "
                "tensors by name"),
    "string": (onnx_models.string_input, "input 'text' is a string tensor; callbench feeds "
               "numbers"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_refused_model_is_one_line_and_exit_2(
    case: str, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    make, problem = REFUSED[case]
    path = make(tmp_path / f"{case}.onnx")
    run = run_harness("--onnx", str(path), "--only", "python-onnxruntime")
    assert run.returncode == 2 and run.run_dir is None
    assert run.stderr.strip().splitlines() == [f"callbench: usage: {path}: {problem}"]


IDS, MASK = np.zeros((3, 16), np.int64), np.zeros((3, 16), np.int64)
BAD_INPUTS = {
    "missing": ({"input_ids": IDS}, "missing 'attention_mask' (the model's inputs: "
                "'input_ids', 'attention_mask')"),
    "extra": ({"input_ids": IDS, "attention_mask": MASK, "labels": np.zeros(3)},
              "not inputs of the model: 'labels' (the model's inputs: 'input_ids', "
              "'attention_mask')"),
    "dtype": ({"input_ids": IDS.astype(np.int32), "attention_mask": MASK},
              "'input_ids' is int32; the model takes int64"),
    "shape": ({"input_ids": np.zeros((3, 15), np.int64), "attention_mask": MASK},
              "'input_ids' has shape [3, 15]; the model takes [samples, 16]"),
    "counts": ({"input_ids": IDS, "attention_mask": np.zeros((4, 16), np.int64)},
               "the inputs hold different sample counts ('input_ids' 3, 'attention_mask' 4)"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_a_bad_inputs_file_is_one_line_and_exit_2(
    case: str, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = onnx_models.tokens(tmp_path / "tokens.onnx")
    arrays, problem = BAD_INPUTS[case]
    bad = tmp_path / f"{case}.npz"
    np.savez(bad, **arrays)
    run = run_harness("--onnx", str(path), "--inputs", str(bad), "--only", "python-onnxruntime")
    assert run.returncode == 2 and run.run_dir is None
    assert run.stderr.strip().splitlines() == [f"callbench: usage: {bad}: {problem}"]
