"""Contract 3's pieces on their own: the tensors table and its files, what an ONNX model
may declare, and the samples a user's model is called on (generated, or ``--inputs``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from callbench.errors import DataError, UsageError
from callbench.model import tensors, user_inputs
from callbench.model.onnx_signature import Declared, batch_of, declared, input_shapes
from tests import onnx_models


def test_files_are_named_by_place_and_dtype_and_the_mlps_are_the_first_case() -> None:
    assert tensors.tensor_file("inputs", 0, "float32") == "inputs.f32"
    assert tensors.tensor_file("reference", 0, "float32") == "reference.f32"
    assert tensors.tensor_file("inputs", 1, "int64") == "inputs1.i64"
    assert tensors.tensor_file("reference", 2, "bool") == "reference2.bool"
    sig = tensors.Signature(
        tensors.tensors("inputs", [("input_ids", "int64", [16]), ("mask", "int64", [16])]),
        tensors.tensors("reference", [("logits", "float32", [2])]),
    )
    again = tensors.read_signature(Path("m.json"), {"tensors": sig.to_json()})
    assert again == sig and [t.file for t in again.inputs] == ["inputs.i64", "inputs1.i64"]


def test_a_tensors_file_is_read_whole_and_checked(tmp_path: Path) -> None:
    board = tensors.Tensor("board", "float32", (2, 3), "inputs.f32")
    np.arange(24, dtype="<f4").tofile(tmp_path / "inputs.f32")
    assert tensors.read_samples(tmp_path, board).shape == (4, 2, 3)
    with pytest.raises(DataError, match="holds 4 samples, the run needs 5"):
        tensors.read_samples(tmp_path, board, needed=5)
    np.arange(25, dtype="<f4").tofile(tmp_path / "inputs.f32")
    with pytest.raises(DataError, match=r"100 bytes is not a whole number of samples of "
                                            r"'board' \(24 bytes each\)"):  # fmt: skip
        tensors.read_samples(tmp_path, board)
    values = np.zeros(24, dtype="<f4")
    values[13] = np.nan
    values.tofile(tmp_path / "inputs.f32")
    with pytest.raises(DataError, match="sample 2 of 'board' is NaN or Inf"):
        tensors.read_samples(tmp_path, board)


def test_tolerances_follow_the_dtype() -> None:
    reference = np.array([0.5, -40.0])
    assert tensors.relative_tolerance("float32", reference) == pytest.approx(4e-3)
    assert tensors.relative_tolerance("float16", reference) == pytest.approx(
        10 * float(np.finfo(np.float16).eps) * 40
    )
    assert tensors.relative_tolerance("int64", reference) == 0.0
    assert tensors.relative_tolerance("bool", np.array([True])) == 0.0


def _model(
    inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto]
) -> onnx.ModelProto:
    nodes = [helper.make_node("Identity", [inputs[0].name], [o.name]) for o in outputs]
    return helper.make_model(helper.make_graph(nodes, "g", inputs, outputs))


def _tensor(name: str, elem: int, dims: list[object]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, dims)


F = TensorProto.FLOAT
REJECTED = {
    "string": (_model([_tensor("text", TensorProto.STRING, ["N", 1])], [_tensor("y", F, ["N"])]),
               "input 'text' is a string tensor; callbench feeds numbers"),
    "bfloat16": (_model([_tensor("x", TensorProto.BFLOAT16, ["N", 2])], [_tensor("y", F, ["N"])]),
                 "input 'x' is bfloat16; callbench feeds float32, float16"),
    "unnamed": (_model([_tensor("", F, ["N", 2])], [_tensor("y", F, ["N"])]),
                "has an input without a name; callbench feeds tensors by name"),
    "zipmap": (_model([_tensor("x", F, ["N", 2])], [helper.make_tensor_sequence_value_info(
                   "output_probability", TensorProto.FLOAT, None)]),
               "output 'output_probability' is a sequence, not a tensor; export the classifier "
               "without ZipMap: skl2onnx's to_onnx(model, ..., options={id(model): "
               '{"zipmap": False}})'),
    "map": (_model([_tensor("x", F, ["N", 2])], [helper.make_value_info(
                "m", helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(
                    F, [])))]),
            "output 'm' is a map, not a tensor; export the classifier without ZipMap"),
    "scalar": (_model([_tensor("x", F, [])], [_tensor("y", F, ["N"])]),
               "input 'x' is a scalar; it must be [batch, ...]"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_what_callbench_cannot_feed_is_one_line(case: str) -> None:
    model, problem = REJECTED[case]
    with pytest.raises(UsageError) as caught:
        declared(Path("m.onnx"), model)
    assert str(caught.value).startswith(f"m.onnx: {problem}"), str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_five_models_declare_what_callbench_feeds(tmp_path: Path) -> None:
    seen = {}
    for name, make in onnx_models.MODELS.items():
        path = make(tmp_path / f"{name}.onnx")
        inputs, outputs = declared(path, onnx.load(path))
        seen[name] = ([(t.name, t.dtype) for t in inputs], [(t.name, t.dtype) for t in outputs])
        assert batch_of(path, inputs) == "N"
    assert seen["classifier"][1] == [("label", "int64"), ("probabilities", "float32")]
    assert seen["tokens"][0] == [("input_ids", "int64"), ("attention_mask", "int64")]
    assert seen["float16"] == ([("x", "float16")], [("y", "float16")])
    assert seen["policy_value"][1] == [("policy", "float32"), ("value", "float32")]


def test_the_batch_and_the_other_dimensions() -> None:
    path = Path("m.onnx")
    fixed = [Declared("a", "float32", (4, 3)), Declared("b", "int64", ("N", 2))]
    assert batch_of(path, fixed) == 4
    with pytest.raises(
        UsageError, match=r"inputs disagree on the batch dimension \('a' 4, 'b' 2\)"
    ):
        batch_of(path, [Declared("a", "float32", (4, 3)), Declared("b", "int64", (2, 2))])
    tokens = [Declared("ids", "int64", ("N", "L"))]
    with pytest.raises(UsageError, match=r"dimension 1 of input 'ids' is 'L', not a fixed size; "
                                         r"give its size with --inputs FILE\.npz"):  # fmt: skip
        input_shapes(path, tokens)
    assert input_shapes(path, tokens, {"ids": (12,)}) == {"ids": (12,)}


def test_generated_inputs_follow_each_dtype() -> None:
    inputs = [Declared("x", "float16", ("N", 3)), Declared("ids", "int64", ("N", 4)),
              Declared("flag", "bool", ("N",))]  # fmt: skip
    made = user_inputs.generated(inputs, {"x": (3,), "ids": (4,), "flag": ()})
    assert made["x"].dtype == np.float16 and made["x"].shape == (100_000, 3)
    assert made["x"].min() >= -1 and made["x"].max() <= 1
    assert made["ids"].dtype == np.int64 and set(np.unique(made["ids"])) == set(range(10))
    assert made["flag"].dtype == np.bool_ and made["flag"].any() and not made["flag"].all()
    again = user_inputs.generated(inputs, {"x": (3,), "ids": (4,), "flag": ()})
    assert all(np.array_equal(made[k], again[k]) for k in made)  # seeded
    image = user_inputs.generated([Declared("x", "float32", ("N", 3, 224, 224))],
                                  {"x": (3, 224, 224)})  # fmt: skip
    assert len(image["x"]) == 64 * 2**20 // (4 * 3 * 224 * 224) == 111


TOKENS = [Declared("input_ids", "int64", ("N", "L")), Declared("mask", "int64", ("N", "L"))]
FIXED = {"input_ids": (None,), "mask": (None,)}
BAD_INPUTS = {
    "missing": ({"input_ids": np.zeros((3, 5), np.int64)}, "missing 'mask' (the model's inputs: "
                "'input_ids', 'mask')"),
    "extra": ({"input_ids": np.zeros((3, 5), np.int64), "mask": np.zeros((3, 5), np.int64),
               "labels": np.zeros(3)}, "not inputs of the model: 'labels' (the model's inputs: "
                                       "'input_ids', 'mask')"),
    "dtype": ({"input_ids": np.zeros((3, 5), np.int32), "mask": np.zeros((3, 5), np.int64)},
              "'input_ids' is int32; the model takes int64"),
    "shape": ({"input_ids": np.zeros((3, 5, 1), np.int64), "mask": np.zeros((3, 5), np.int64)},
              "'input_ids' has shape [3, 5, 1]; the model takes [samples, ?]"),
    "counts": ({"input_ids": np.zeros((3, 5), np.int64), "mask": np.zeros((4, 5), np.int64)},
               "the inputs hold different sample counts ('input_ids' 3, 'mask' 4)"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_a_bad_inputs_file_is_one_line(case: str, tmp_path: Path) -> None:
    arrays, problem = BAD_INPUTS[case]
    path = tmp_path / f"{case}.npz"
    np.savez(path, **arrays)
    with pytest.raises(UsageError) as caught:
        user_inputs.from_npz(path, TOKENS, FIXED)
    assert str(caught.value) == f"{path}: {problem}"


def test_an_inputs_file_is_never_unpickled(tmp_path: Path) -> None:
    path = tmp_path / "objects.npz"
    np.savez(path, input_ids=np.array([{"a": 1}], dtype=object), mask=np.zeros((1, 5), np.int64))
    with pytest.raises(UsageError, match=r"objects.npz: not an .npz of arrays \(Object arrays"):
        user_inputs.from_npz(path, TOKENS, FIXED)


def test_a_good_inputs_file_gives_each_input_its_array(tmp_path: Path) -> None:
    ids = np.arange(30, dtype=np.int64).reshape(3, 10)
    np.savez(tmp_path / "tokens.npz", input_ids=ids, mask=np.ones((3, 10), np.int64))
    got = user_inputs.from_npz(tmp_path / "tokens.npz", TOKENS, FIXED)
    assert np.array_equal(got["input_ids"], ids) and got["mask"].shape == (3, 10)


def test_a_batch_above_the_samples_is_a_usage_error_naming_the_count(tmp_path: Path) -> None:
    from callbench.harness.expected import Expected
    from callbench.harness.options import RunOptions
    from callbench.harness.run import check_call

    image = tensors.tensors("inputs", [("x", "float32", [3, 224, 224])])
    logits = tensors.tensors("reference", [("logits", "float32", [10])])
    signature = tensors.Signature(image, logits)
    expected = Expected(signature, ((logits[0], np.zeros((111, 10), np.float32)),))
    check_call(RunOptions(models=tmp_path, batch=111), expected)
    with pytest.raises(UsageError) as caught:
        check_call(RunOptions(models=tmp_path, batch=112), expected)
    assert str(caught.value) == (
        f"--batch 112 needs 112 samples a call, {tmp_path / 'inputs.f32'} holds 111"
    )
    fixed = tensors.Signature(image, logits, batch=4)
    with pytest.raises(UsageError, match=r"the model takes batches of 4 only"):
        check_call(RunOptions(models=tmp_path, batch=1), Expected(fixed, expected.outputs))
