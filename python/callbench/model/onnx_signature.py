"""What callbench can feed an ONNX model and read back (contract 3): named tensors of the
dtypes in ``tensors.DTYPES``, rank 1 or more, the batch dimension first.

The batch dimension is symbolic, or fixed (1, or n: then the model runs only at
``--batch n``); every other dimension of an input is fixed, or given by the
arrays of ``--inputs``. Outputs may have symbolic dimensions: the reference
run gives their sizes. Anything else is one line naming the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbench.errors import UsageError

ZIPMAP_HINT = (
    "export the classifier without ZipMap: skl2onnx's "
    'to_onnx(model, ..., options={id(model): {"zipmap": False}})'
)
Dim = str | int
UNNAMED = "has an {what} without a name; callbench feeds tensors by name"


@dataclass(frozen=True)
class Declared:
    """One input or output as the graph declares it: dims are sizes or symbolic names."""

    name: str
    dtype: str
    dims: tuple[Dim, ...]


def reject(path: Path, problem: str) -> UsageError:
    return UsageError(f"{path}: {problem}")


def _dtype(path: Path, what: str, name: str, elem: int) -> str:
    import onnx

    from callbench.model.tensors import DTYPES

    found = str(onnx.TensorProto.DataType.Name(elem)).lower()
    named = {"float": "float32", "double": "float64"}.get(found, found)
    if named == "string":
        raise reject(path, f"{what} {name!r} is a string tensor; callbench feeds numbers")
    if named not in DTYPES:
        raise reject(path, f"{what} {name!r} is {found}; callbench feeds {', '.join(DTYPES)}")
    return named


def _declared(path: Path, what: str, value_info: Any) -> Declared:
    name = value_info.name
    if not name:
        raise reject(path, UNNAMED.format(what=what))
    kind = value_info.type.WhichOneof("value")
    if kind != "tensor_type":
        kind_name = (kind or "untyped").removesuffix("_type")
        hint = f"; {ZIPMAP_HINT}" if kind in ("sequence_type", "map_type") else ""
        raise reject(path, f"{what} {name!r} is a {kind_name}, not a tensor{hint}")
    tensor = value_info.type.tensor_type
    dtype = _dtype(path, what, name, tensor.elem_type)
    if not tensor.HasField("shape"):
        raise reject(path, f"{what} {name!r} declares no shape; it must be [batch, ...]")
    dims: list[Dim] = []
    for d in tensor.shape.dim:
        dims.append(int(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?"))
    if not dims:
        raise reject(path, f"{what} {name!r} is a scalar; it must be [batch, ...]")
    return Declared(name, dtype, tuple(dims))


def declared(path: Path, model: Any) -> tuple[list[Declared], list[Declared]]:
    """The graph's inputs (less its initialisers) and outputs, each checked to be a
    named numeric tensor of rank 1 or more."""
    graph = model.graph
    initialised = {t.name for t in graph.initializer}
    inputs = [_declared(path, "input", i) for i in graph.input if i.name not in initialised]
    outputs = [_declared(path, "output", o) for o in graph.output]
    if not inputs or not outputs:
        raise reject(path, f"has {len(inputs)} inputs and {len(outputs)} outputs; callbench "
                           "needs at least one of each")  # fmt: skip
    return inputs, outputs


def batch_of(path: Path, inputs: list[Declared]) -> Dim:
    """The inputs' shared batch dimension: a symbolic name, 1, or a fixed n."""
    fixed = {t.dims[0] for t in inputs if isinstance(t.dims[0], int)}
    if len(fixed) > 1:
        sizes = ", ".join(f"{t.name!r} {t.dims[0]}" for t in inputs)
        raise reject(path, f"inputs disagree on the batch dimension ({sizes})")
    return fixed.pop() if fixed else inputs[0].dims[0]


def input_shapes(
    path: Path, inputs: list[Declared], given: Mapping[str, tuple[int, ...]] | None = None
) -> dict[str, tuple[int, ...]]:
    """Each input's shape per sample: its fixed dimensions, or those of its ``--inputs`` array.

    A symbolic dimension past the batch one needs ``--inputs``; an array that disagrees
    with a fixed one is the caller's to report.
    """
    shapes = {}
    for t in inputs:
        rest = t.dims[1:]
        if given is not None and t.name in given:
            shapes[t.name] = given[t.name]
            continue
        for axis, d in enumerate(rest, 1):
            if not isinstance(d, int) or d < 1:
                raise reject(
                    path, f"dimension {axis} of input {t.name!r} is {d!r}, not a fixed size; "
                    "give its size with --inputs FILE.npz (one array per input name)",
                )  # fmt: skip
        shapes[t.name] = tuple(int(d) for d in rest)
    return shapes
