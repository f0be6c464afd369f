"""What a user's ONNX model file must be: one file under the size limit, its weights
inside it, approved by onnx.checker (what its inputs and outputs may be:
``onnx_signature``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.errors import first_line
from callbench.model.onnx_signature import UNNAMED, reject

# A model over this size is refused (the README says so): every driver loads its own
# copy, and two load at once on a 24 GiB machine.
SIZE_LIMIT = 256 * 1024 * 1024


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
    if any(not i.name for i in model.graph.input):  # before onnx.checker, which says less
        raise reject(path, UNNAMED.format(what="input"))
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as exc:
        raise reject(path, f"rejected by onnx.checker ({first_line(exc)})") from None
    return model, data
