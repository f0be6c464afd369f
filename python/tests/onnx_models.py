"""Models people call in a loop, built with onnx.helper for the contract-3 tests: each with
a symbolic batch ``N``, seeded weights, and only operators OpenVINO and every ONNX
Runtime binding support."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
FLOAT, FLOAT16, INT64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64


def _weights(
    rng: np.random.Generator, name: str, *shape: int, dtype: str = "<f4"
) -> onnx.TensorProto:
    scale = 1.0 / np.sqrt(np.prod(shape[1:]) if len(shape) > 1 else 1.0)
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(dtype), name)


def _save(path: Path, nodes: list, inputs: list, outputs: list, inits: list) -> Path:
    graph = helper.make_graph(nodes, path.stem, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="callbench-tests")  # fmt: skip
    model.ir_version = 9
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def image(path: Path) -> Path:
    """A rank-4 convolution model: x [N, 3, 32, 32] -> logits [N, 10]."""
    rng = np.random.default_rng(1)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], kernel_shape=[3, 3], strides=[2, 2]),
        helper.make_node("Flatten", ["c"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "g", "gb"], ["logits"], transB=1),
    ]
    inits = [_weights(rng, "w", 4, 3, 3, 3), _weights(rng, "g", 10, 4 * 15 * 15),
             _weights(rng, "gb", 10)]  # fmt: skip
    return _save(path, nodes, [helper.make_tensor_value_info("x", FLOAT, ["N", 3, 32, 32])],
                 [helper.make_tensor_value_info("logits", FLOAT, ["N", 10])], inits)  # fmt: skip


def policy_value(path: Path) -> Path:
    """A board model with two outputs: board [N, 17, 8, 8] -> policy [N, 64], value [N, 1]."""
    rng = np.random.default_rng(2)
    nodes = [
        helper.make_node("Conv", ["board", "w"], ["c"], kernel_shape=[1, 1]),
        helper.make_node("Flatten", ["c"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "p", "pb"], ["policy"], transB=1),
        helper.make_node("Gemm", ["f", "v", "vb"], ["value"], transB=1),
    ]
    inits = [_weights(rng, "w", 4, 17, 1, 1), _weights(rng, "p", 64, 256), _weights(rng, "pb", 64),
             _weights(rng, "v", 1, 256), _weights(rng, "vb", 1)]  # fmt: skip
    return _save(path, nodes, [helper.make_tensor_value_info("board", FLOAT, ["N", 17, 8, 8])],
                 [helper.make_tensor_value_info("policy", FLOAT, ["N", 64]),
                  helper.make_tensor_value_info("value", FLOAT, ["N", 1])], inits)  # fmt: skip


def classifier(path: Path) -> Path:
    """An int64 label beside the probabilities: x [N, 4] -> label [N], probabilities [N, 3]."""
    rng = np.random.default_rng(3)
    nodes = [
        helper.make_node("Gemm", ["x", "w", "b"], ["scores"], transB=1),
        helper.make_node("Softmax", ["scores"], ["probabilities"], axis=1),
        helper.make_node("ArgMax", ["scores"], ["label"], axis=1, keepdims=0),
    ]
    inits = [_weights(rng, "w", 3, 4), _weights(rng, "b", 3)]
    return _save(path, nodes, [helper.make_tensor_value_info("x", FLOAT, ["N", 4])],
                 [helper.make_tensor_value_info("label", INT64, ["N"]),
                  helper.make_tensor_value_info("probabilities", FLOAT, ["N", 3])],
                 inits)  # fmt: skip


def tokens(path: Path) -> Path:
    """Two int64 inputs, input_ids and attention_mask [N, 16]: an embedding by Gather, the
    mask's matmul over the sequence, then a linear layer -> [N, 2]."""
    rng = np.random.default_rng(4)
    shape = numpy_helper.from_array(np.array([-1, 1, 16], dtype=np.int64), "mask_shape")
    nodes = [
        helper.make_node("Gather", ["embedding", "input_ids"], ["e"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["m"], to=FLOAT),
        helper.make_node("Reshape", ["m", "mask_shape"], ["m3"]),
        helper.make_node("MatMul", ["m3", "e"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["p"], axis=1),
        helper.make_node("Gemm", ["p", "w", "b"], ["logits"], transB=1),
    ]
    inits = [_weights(rng, "embedding", 10, 8), shape, _weights(rng, "w", 2, 8),
             _weights(rng, "b", 2)]  # fmt: skip
    return _save(path, nodes, [helper.make_tensor_value_info("input_ids", INT64, ["N", 16]),
                               helper.make_tensor_value_info("attention_mask", INT64, ["N", 16])],
                 [helper.make_tensor_value_info("logits", FLOAT, ["N", 2])], inits)  # fmt: skip


def half(path: Path) -> Path:
    """A float16 model: x [N, 4] float16 -> y [N, 3] float16."""
    rng = np.random.default_rng(5)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"])]
    inits = [_weights(rng, "w", 4, 3, dtype="<f2")]
    return _save(path, nodes, [helper.make_tensor_value_info("x", FLOAT16, ["N", 4])],
                 [helper.make_tensor_value_info("y", FLOAT16, ["N", 3])], inits)  # fmt: skip


def other_dtypes(path: Path) -> Path:
    """One input of each dtype the five models above leave out, each [N, 2], and an output
    of the same dtype from it: float64 and int32 doubled, int8 and uint8 passed through,
    bool negated."""
    ports = [("a", TensorProto.DOUBLE, "Add"), ("b", TensorProto.INT32, "Add"),
             ("c", TensorProto.INT8, "Identity"), ("d", TensorProto.UINT8, "Identity"),
             ("e", TensorProto.BOOL, "Not")]  # fmt: skip
    nodes = [helper.make_node(op, [name, name] if op == "Add" else [name], [f"{name}_out"])
             for name, _, op in ports]  # fmt: skip
    return _save(path, nodes,
                 [helper.make_tensor_value_info(n, t, ["N", 2]) for n, t, _ in ports],
                 [helper.make_tensor_value_info(f"{n}_out", t, ["N", 2]) for n, t, _ in ports],
                 [])  # fmt: skip


MODELS = {"image": image, "policy_value": policy_value, "classifier": classifier,
          "tokens": tokens, "float16": half}  # fmt: skip


def fixed_batch(path: Path, batch: int) -> Path:
    """x [batch, 4] -> y [batch, 3] with the batch dimension fixed at ``batch``."""
    rng = np.random.default_rng(6)
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)]
    inits = [_weights(rng, "w", 3, 4), _weights(rng, "b", 3)]
    return _save(path, nodes, [helper.make_tensor_value_info("x", FLOAT, [batch, 4])],
                 [helper.make_tensor_value_info("y", FLOAT, [batch, 3])], inits)  # fmt: skip


def zipmap(path: Path) -> Path:
    """A classifier as skl2onnx writes it by default: probabilities through ZipMap, a
    sequence of maps."""
    rng = np.random.default_rng(7)
    nodes = [
        helper.make_node("Gemm", ["x", "w", "b"], ["scores"], transB=1),
        helper.make_node("ZipMap", ["scores"], ["output_probability"], domain="ai.onnx.ml",
                         classlabels_int64s=[0, 1, 2]),
    ]  # fmt: skip
    out = helper.make_tensor_sequence_value_info("output_probability", FLOAT, None)
    out.type.sequence_type.elem_type.CopyFrom(
        helper.make_map_type_proto(INT64, helper.make_tensor_type_proto(FLOAT, []))
    )
    x = helper.make_tensor_value_info("x", FLOAT, ["N", 4])
    inits = [_weights(rng, "w", 3, 4), _weights(rng, "b", 3)]
    graph = helper.make_graph(nodes, path.stem, [x], [out], inits)
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid("ai.onnx.ml", 3)]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 9
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def unnamed_input(path: Path) -> Path:
    """An input whose name is empty (a hand-edited graph)."""
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], path.stem,
                              [helper.make_tensor_value_info("", FLOAT, ["N", 2]),
                               helper.make_tensor_value_info("x", FLOAT, ["N", 2])],
                              [helper.make_tensor_value_info("y", FLOAT, ["N", 2])])  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 9
    onnx.save(model, str(path))
    return path


def string_input(path: Path) -> Path:
    """A model that takes text: a string tensor callbench cannot generate or feed."""
    text = helper.make_tensor_value_info("text", TensorProto.STRING, ["N", 1])
    echo = helper.make_tensor_value_info("echo", TensorProto.STRING, ["N", 1])
    return _save(path, [helper.make_node("Identity", ["text"], ["echo"])], [text], [echo], [])
