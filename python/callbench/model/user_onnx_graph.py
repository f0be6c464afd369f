"""What a user's ONNX model must be: one file under the size limit, approved by
onnx.checker, one float32 input ``[batch, F]`` and one float32 output ``[batch, ...]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import UsageError, first_line

# A model over this size is refused (the README says so): every driver loads its own
# copy, and two load at once on a 24 GiB machine.
SIZE_LIMIT = 256 * 1024 * 1024


@dataclass(frozen=True)
class Signature:
    """What callbench feeds the model and reads back: one float32 input, one output."""

    input_name: str
    features: int
    output_name: str
    output_shape: tuple[int, ...]  # per sample, without the batch dimension
    batch: str | int  # the batch dimension as the model declares it: a name, 1, or "?"

    @property
    def output_width(self) -> int:
        return int(np.prod(self.output_shape, dtype=np.int64))


def reject(path: Path, problem: str) -> UsageError:
    return UsageError(f"{path}: {problem}")


def _dims(value_info: Any) -> list[str | int]:
    """A tensor's declared shape: ints, symbolic names, or "?" for an unknown dimension."""
    dims: list[str | int] = []
    for d in value_info.type.tensor_type.shape.dim:
        if d.HasField("dim_value"):
            dims.append(int(d.dim_value))
        else:
            dims.append(d.dim_param or "?")
    return dims


def _float_tensor(path: Path, what: str, value_info: Any) -> list[str | int]:
    import onnx

    kind = value_info.type.WhichOneof("value")
    if kind != "tensor_type":
        raise reject(path, f"{what} {value_info.name!r} is a {kind}, not a tensor")
    elem = value_info.type.tensor_type.elem_type
    if elem != onnx.TensorProto.FLOAT:
        name = onnx.TensorProto.DataType.Name(elem).lower()
        raise reject(path, f"{what} {value_info.name!r} is {name}; callbench feeds float32")
    if not value_info.type.tensor_type.HasField("shape"):
        raise reject(path, f"{what} {value_info.name!r} declares no shape; it must be [batch, ...]")
    return _dims(value_info)


def _batch_dim(path: Path, what: str, name: str, dims: list[str | int]) -> str | int:
    if not dims:
        raise reject(path, f"{what} {name!r} is a scalar; it must be [batch, ...]")
    first = dims[0]
    if isinstance(first, int) and first != 1:
        raise reject(path, f"{what} {name!r} has batch dimension {first}; it must be dynamic or 1")
    for axis, d in enumerate(dims[1:], 1):
        if not isinstance(d, int) or d < 1:
            raise reject(
                path, f"dimension {axis} of {what} {name!r} is {d!r}, not a fixed size; "
                "only the batch dimension may be symbolic",
            )  # fmt: skip
    return first


def signature(path: Path, model: Any) -> Signature:
    """The model's one input and one output, checked against what callbench can feed."""
    graph = model.graph
    initialised = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in initialised]
    if len(inputs) != 1:
        names = ", ".join(repr(i.name) for i in inputs) or "none"
        raise reject(path, f"has {len(inputs)} inputs ({names}); callbench feeds exactly one")
    if len(graph.output) != 1:
        names = ", ".join(repr(o.name) for o in graph.output) or "none"
        raise reject(
            path, f"has {len(graph.output)} outputs ({names}); callbench times one-output "
            "models (keep the output you call it for)",
        )  # fmt: skip
    x, y = inputs[0], graph.output[0]
    x_dims = _float_tensor(path, "input", x)
    if len(x_dims) != 2:
        raise reject(path, f"input {x.name!r} has shape {x_dims}; it must be [batch, features]")
    batch = _batch_dim(path, "input", x.name, x_dims)
    y_dims = _float_tensor(path, "output", y)
    _batch_dim(path, "output", y.name, y_dims)
    shape = tuple(int(d) for d in y_dims[1:])
    return Signature(x.name, int(x_dims[1]), y.name, shape, batch)


def load(path: Path, limit: int = SIZE_LIMIT) -> tuple[Any, bytes]:
    """The parsed, checker-approved model and its bytes; a one-line rejection otherwise."""
    import onnx

    if not path.exists():
        raise reject(path, "no such file")
    if not path.is_file():
        raise reject(path, "not a file")
    size = path.stat().st_size
    if size > limit:
        raise reject(path, f"is {size / 2**20:.0f} MiB, over callbench's {limit / 2**20:.0f} MiB")
    data = path.read_bytes()
    try:
        model = onnx.load_from_string(data)
    except Exception as exc:  # protobuf's DecodeError, or onnx's own on odd bytes
        raise reject(path, f"not an ONNX model ({first_line(exc)})") from None
    if not model.graph.node and not model.graph.output:
        raise reject(path, "not an ONNX model (no graph in it)")
    if any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        raise reject(
            path,
            "keeps its weights in an external data file; save it as one file "
            "(torch.onnx.export(..., external_data=False))",
        )
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as exc:
        raise reject(path, f"rejected by onnx.checker ({first_line(exc)})") from None
    return model, data
