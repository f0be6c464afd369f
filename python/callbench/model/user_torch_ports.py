"""What a user's torch.export program takes and gives: each user input's and output's name,
contract dtype and dims (a dynamic dimension by its name), read from the loaded program's
graph, and the batch dimension they share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.model.onnx_signature import Declared
from callbench.model.user_torch_archive import refuse

# torch's dtypes as contract 3 names them.
# torch's dtypes as contract 3 names them.
TORCH_DTYPES = {"float32": "float32", "float16": "float16", "float64": "float64",
                "int64": "int64", "int32": "int32", "int8": "int8", "uint8": "uint8",
                "bool": "bool"}  # fmt: skip


def _contract_dtype(path: Path, what: str, name: str, dtype: Any) -> str:
    found = TORCH_DTYPES.get(str(dtype).removeprefix("torch."))
    if found is None:
        raise refuse(path, f"{what} {name!r} is {dtype}; callbench feeds "
                     f"{', '.join(TORCH_DTYPES)}")  # fmt: skip
    return found


def _dims(shape: Any) -> tuple[int | str, ...]:
    """Sizes, with a symbolic size (a dynamic dimension) as its name."""
    return tuple(int(d) if isinstance(d, int) else str(d) for d in shape)


def declared(path: Path, ep: Any) -> tuple[list[Declared], list[Declared]]:
    """The program's user inputs and outputs: names, contract dtypes, dims (symbolic names
    where dynamic), from the graph's placeholders and output node."""
    from torch.export.graph_signature import InputKind, OutputKind, TensorArgument

    specs = [s for s in ep.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    if not specs:
        raise refuse(path, "the program takes no inputs; callbench calls a model on inputs")
    for s in specs:
        if not isinstance(s.arg, TensorArgument):
            raise refuse(path, f"input {getattr(s.arg, 'name', '?')!r} is not a tensor "
                         f"({type(s.arg).__name__}); callbench feeds tensors only")  # fmt: skip
    nodes = {n.name: n for n in ep.graph.nodes}
    inputs = []
    for s in specs:
        val = nodes[s.arg.name].meta["val"]
        dtype = _contract_dtype(path, "input", s.arg.name, val.dtype)
        inputs.append(Declared(s.arg.name, dtype, _dims(val.shape)))
    outputs = []
    for s in ep.graph_signature.output_specs:
        if s.kind != OutputKind.USER_OUTPUT:
            continue
        if not isinstance(s.arg, TensorArgument):
            raise refuse(path, f"output {getattr(s.arg, 'name', '?')!r} is not a tensor")
        val = nodes[s.arg.name].meta["val"]
        dtype = _contract_dtype(path, "output", s.arg.name, val.dtype)
        outputs.append(Declared(s.arg.name, dtype, _dims(val.shape)))
    if not outputs:
        raise refuse(path, "the program returns no tensor")
    return inputs, outputs


def batch_of(path: Path, inputs: list[Declared]) -> str | int:
    """The inputs' shared batch dimension: a dynamic dimension's name, or a fixed size."""
    firsts = {t.dims[0] if t.dims else None for t in inputs}
    if None in firsts or len(firsts) != 1:
        dims = ", ".join(f"{t.name!r} {list(t.dims)}" for t in inputs)
        raise refuse(path, f"its inputs do not share a first (batch) dimension ({dims})")
    return firsts.pop()  # type: ignore[return-value]
