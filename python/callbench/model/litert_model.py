"""``mlp.tflite``: the MLP as a LiteRT (TensorFlow Lite) flatbuffer, for python-litert.

Written with LiteRT's own schema (``ai_edge_litert.schema_py_generated``, the
classes its interpreter reads with): one ``FULLY_CONNECTED`` operator per
layer, ReLU fused into the first two, float32 throughout, a dynamic batch
(shape signature ``[-1, F]``) and one signature, ``serving_default``, naming
the input ``x`` and the output ``y`` as the ONNX model does. That is the
graph LiteRT's converters emit for ``nn.Linear`` and ``ReLU``.

Why not ``litert-torch`` (formerly ai-edge-torch), the converter the issue
names: its 0.10.0 release requires ``torch<2.15`` (and transformers, jax,
kagglehub), and the suite pins torch 2.15.0. The flatbuffer holds no
timestamp, so the same weights give the same bytes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from importlib.metadata import version

import numpy as np

from callbench.model.architecture import layers
from callbench.model.exported_programs import Artifact

TFLITE = "mlp.tflite"
FILE_IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3
SIGNATURE = "serving_default"

# (weight [out, in], bias [out], ReLU after it)
Layer = tuple[np.ndarray, np.ndarray, bool]


def tflite_bytes(chain: Sequence[Layer], input_name: str = "x", output_name: str = "y") -> bytes:
    """A float32 LiteRT model chaining the layers of ``chain``, each a fully connected
    operator."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema

    def tensor(name: str, shape: list[int], buffer: int = 0) -> schema.TensorT:
        t = schema.TensorT()
        t.name, t.type, t.buffer = name, schema.TensorType.FLOAT32, buffer
        t.shape = [1 if d < 0 else d for d in shape]
        t.shapeSignature = shape
        return t

    def constant(data: np.ndarray) -> schema.BufferT:
        b = schema.BufferT()
        b.data = np.ascontiguousarray(data, dtype="<f4").view(np.uint8).ravel()
        return b

    buffers = [schema.BufferT()]  # buffer 0: the empty sentinel every model starts with
    tensors = [tensor(input_name, [-1, int(chain[0][0].shape[1])])]
    operators = []
    for n, (weight, bias, relu) in enumerate(chain):
        out_width = int(weight.shape[0])
        source = len(tensors) - 1
        buffers += [constant(weight), constant(bias)]
        last = n == len(chain) - 1
        tensors += [
            tensor(f"layer{n}.weight", list(weight.shape), len(buffers) - 2),
            tensor(f"layer{n}.bias", [out_width], len(buffers) - 1),
            tensor(output_name if last else f"layer{n}.out", [-1, out_width]),
        ]
        options = schema.FullyConnectedOptionsT()
        options.fusedActivationFunction = (
            schema.ActivationFunctionType.RELU if relu else schema.ActivationFunctionType.NONE
        )
        op = schema.OperatorT()
        op.opcodeIndex = 0
        op.inputs = [source, len(tensors) - 3, len(tensors) - 2]
        op.outputs = [len(tensors) - 1]
        op.builtinOptionsType = schema.BuiltinOptions.FullyConnectedOptions
        op.builtinOptions = options
        operators.append(op)
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.FULLY_CONNECTED
    graph = schema.SubGraphT()
    graph.name, graph.tensors, graph.operators = "main", tensors, operators
    graph.inputs, graph.outputs = [0], [len(tensors) - 1]

    def mapped(name: str, index: int) -> schema.TensorMapT:
        m = schema.TensorMapT()
        m.name, m.tensorIndex = name, index
        return m

    signature = schema.SignatureDefT()
    signature.signatureKey, signature.subgraphIndex = SIGNATURE, 0
    signature.inputs = [mapped(input_name, 0)]
    signature.outputs = [mapped(output_name, len(tensors) - 1)]
    model = schema.ModelT()
    model.version, model.description = SCHEMA_VERSION, "callbench MLP"
    model.operatorCodes, model.subgraphs, model.buffers = [code], [graph], buffers
    model.signatureDefs = [signature]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())


def mlp_layers(state: dict[str, np.ndarray], names: Sequence[str]) -> list[Layer]:
    """The MLP's layers from its state_dict as NumPy arrays: ReLU after all but the last."""
    return [
        (state[f"{name}.weight"], state[f"{name}.bias"], n < len(names) - 1)
        for n, name in enumerate(names)
    ]


def artifact(state: dict[str, np.ndarray]) -> Artifact:
    """``mlp.tflite`` of the reference MLP and its manifest fields."""
    start = time.perf_counter()
    data = tflite_bytes(mlp_layers(state, [name for name, _, _ in layers()]))
    return Artifact(
        data,
        {
            "format": "LiteRT (TensorFlow Lite) flatbuffer, float32, FULLY_CONNECTED ops "
                      "(ReLU fused), dynamic batch; written with ai_edge_litert's schema",
            "signature": SIGNATURE,
            "ai_edge_litert": version("ai-edge-litert"),
            "reproducible": True,
        },
        time.perf_counter() - start,
    )  # fmt: skip
