"""A PyTorch program the user brings (``--torch PATH.pt2``): checked, loaded, then made
into an artifact set, each artifact derived on its own.

The folder has the shape of ``user_onnx``'s (contract 3): one file of samples per
input, one of reference values per output, a manifest with the tensors table and
what the user brought, and the artifacts the drivers load:

- ``program.pt2``: the user's file, byte for byte (the eager rows load it);
- ``mlp.onnx``: ``torch.onnx.export`` of the program (every ONNX driver);
- ``mlp.pt2``: an AOTInductor package of it, compiled for this CPU (the AOTI rows);
- ``mlp_cuda.pt2``: an AOTInductor package of it for the CUDA device (python-aoti-cuda), on a
  host with one; elsewhere its entry says it was skipped and why;
- ``mlp.pte``: an ExecuTorch program of it, lowered to XNNPACK (the ExecuTorch rows);
- ``mlp_portable.pte``: the same without a delegate (ExecuTorch's own kernels);
- ``mlp_torchscript.pt``: ``torch.jit.trace`` of the program's module, checked at another
  batch than it was traced at (the TorchScript rows of Python, C++, Java and Rust).

Only the artifacts the chosen drivers load are made.

Each derived artifact is timed and may fail alone: the manifest's ``artifacts``
table says, for each, its seconds, bytes, or the exporter's first line, and the
drivers of a missing one are recorded as skipped with it. The reference is the
program's own module, ``ep.module()``, in eager under ``torch.inference_mode()``.
"""

from __future__ import annotations

import io
import logging
import time
import warnings
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model import artifacts as art
from callbench.model import tensors as tn
from callbench.model import user_inputs
from callbench.model.exported_programs import (
    AOTI_CUDA_PACKAGE,
    AOTI_PACKAGE,
    CUDA_ONLY,
    EXECUTORCH_PORTABLE,
    EXECUTORCH_XNNPACK,
)
from callbench.model.onnx_signature import Declared
from callbench.model.user_onnx import Checked, fit_batch, reference_step
from callbench.model.user_torch_archive import check, refuse

PROGRAM = "program.pt2"
# The extra file of a traced program's TorchScript that holds its signature.
SIGNATURE_FILE = "callbench_signature.txt"
KIND = "torch.export program"
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


def load(path: Path) -> Any:
    """The checked archive loaded: its sample inputs first with ``weights_only=True`` (so
    torch's own load never falls back to a full unpickle), then ``torch.export.load``."""
    import torch

    archive = check(path)
    try:
        torch.load(io.BytesIO(archive.sample_inputs), weights_only=True)
    except Exception as exc:  # torch raises UnpicklingError for anything beyond tensors
        raise refuse(path, "its sample inputs are not plain tensors (they do not load with "
                     f"weights_only=True: {first_line(exc)})") from None  # fmt: skip
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.export.load(path)
    except Exception as exc:  # ValueError for another archive version, RuntimeError, ...
        problem = f"torch {torch.__version__} cannot load it ({first_line(exc)})"
        raise refuse(path, problem) from None


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


def samples_for(path: Path, inputs_path: Path | None, inputs: list[Declared]) -> dict[str, Any]:
    fixed = {t.name: tuple(d if isinstance(d, int) else None for d in t.dims[1:]) for t in inputs}
    if inputs_path is not None:
        return user_inputs.from_npz(inputs_path, inputs, fixed)
    for t in inputs:
        if None in fixed[t.name]:
            raise refuse(path, f"input {t.name!r} is {list(t.dims)}: a dynamic size beyond the "
                         "batch; give its samples with --inputs FILE.npz")  # fmt: skip
    shapes = {name: tuple(int(d) for d in dims if d is not None) for name, dims in fixed.items()}
    return user_inputs.generated(inputs, shapes)


def reference_outputs(
    path: Path, ep: Any, inputs: list[Declared], outputs: list[Declared], batch: str | int,
    samples: Mapping[str, np.ndarray],
) -> dict[str, Any]:  # fmt: skip
    """``ep.module()`` in eager, under ``torch.inference_mode()``: each output ``[N, *shape]``."""
    import torch
    from torch.utils._pytree import tree_leaves

    count = len(next(iter(samples.values())))
    step = reference_step(batch, samples)
    parts: list[list[np.ndarray]] = [[] for _ in outputs]
    module = ep.module()
    try:
        with torch.inference_mode():
            for i in range(0, count, step):
                args = [torch.from_numpy(samples[t.name][i : i + step]) for t in inputs]
                leaves = tree_leaves(module(*args))
                if len(leaves) != len(outputs):
                    raise ValueError(f"gave {len(leaves)} outputs, the program declares "
                                     f"{len(outputs)}")  # fmt: skip
                for part, y in zip(parts, leaves, strict=True):
                    part.append(y.numpy())
    except Exception as exc:  # the program's own failure on the generated inputs
        raise refuse(path, f"its module cannot run on the inputs ({first_line(exc)})") from None
    found = {}
    for out, part in zip(outputs, parts, strict=True):
        values = np.concatenate(part)
        if out.dtype in tn.FLOATS and not np.isfinite(values).all():
            raise refuse(path, f"output {out.name!r} is NaN or Inf on the inputs")
        found[out.name] = values
    return found


def timed(make: Callable[[], bytes], name: str = "") -> dict[str, Any]:
    """An artifact made, with its seconds and bytes, or the exporter's first line (or, for
    one made on a CUDA device only, where there is none, the reason it was not tried)."""
    if name in CUDA_ONLY:
        from callbench.cuda_probe import torch_reason

        if (reason := torch_reason()) is not None:
            return {"status": "skipped", "error": reason, "seconds": 0.0}
    start = time.perf_counter()
    try:
        blob = make()
    except Exception as exc:  # each exporter fails its own way; the others go on
        return {"status": "failed", "error": first_line(exc),
                "seconds": round(time.perf_counter() - start, 3)}  # fmt: skip
    return {"status": "ok", "seconds": round(time.perf_counter() - start, 3), "bytes": len(blob),
            "blob": blob}  # fmt: skip


def onnx_of(ep: Any) -> bytes:
    """``torch.onnx.export`` of the program itself (the dynamo exporter), checked."""
    import onnx
    import torch

    logging.getLogger("torch.onnx").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.onnx.export(ep, dynamo=True, verbose=False)
    if program is None:
        raise RuntimeError("torch.onnx.export returned no program")
    proto = program.model_proto
    onnx.checker.check_model(proto, full_check=True)
    return bytes(proto.SerializeToString())


def torchscript_of(
    ep: Any, signature: tn.Signature, samples: Mapping[str, np.ndarray],
    reference: Mapping[str, np.ndarray],
) -> bytes:  # fmt: skip
    """``torch.jit.trace`` of the program's module at a batch of 2 (its fixed batch, if it has
    one), checked against the reference at a batch of 3: tracing records the sizes it sees,
    so a module that baked the example's batch in is refused, not run at the wrong size."""
    import torch

    count = len(next(iter(samples.values())))
    fixed = signature.fixed_batch
    trace_at, check_at = (fixed, fixed) if fixed else (min(2, count), min(3, count))

    def first(n: int) -> tuple[Any, ...]:
        return tuple(torch.from_numpy(samples[t.name][:n]) for t in signature.inputs)

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trace: Any = torch.jit.trace
        traced = trace(ep.module(), first(trace_at), check_trace=False)
        try:
            got = traced(*first(check_at))
        except Exception as exc:  # the interpreter's own line is its last
            last = [ln.strip() for ln in str(exc).splitlines() if ln.strip()] or [repr(exc)]
            raise RuntimeError(f"traced at batch {trace_at}, it fails at batch {check_at} "
                               f"({last[-1]}): tracing baked a size in") from None  # fmt: skip
    leaves = got if isinstance(got, tuple | list) else (got,)
    if len(leaves) != len(signature.outputs):
        raise RuntimeError(f"the traced module gives {len(leaves)} outputs, the program "
                           f"{len(signature.outputs)}")  # fmt: skip
    for t, y in zip(signature.outputs, leaves, strict=True):
        want = reference[t.name][:check_at]
        if tuple(y.shape) != want.shape:
            raise RuntimeError(f"traced at batch {trace_at}, it answers {t.name!r} at batch "
                               f"{check_at} with {list(y.shape)}, not {list(want.shape)}: "
                               "tracing baked a size in")  # fmt: skip
        error = float(np.max(np.abs(y.numpy().astype("f8") - want.astype("f8")), initial=0))
        if error > (t.tolerance or 0):
            raise RuntimeError(f"traced at batch {trace_at}, it answers {t.name!r} at batch "
                               f"{check_at} {error:.3g} away from the program (tolerance "
                               f"{t.tolerance:.3g}): tracing baked something in")  # fmt: skip
    from callbench.model.exported_programs import signature_metadata

    # The signature rides along as an extra file: a TorchScript file says nothing of its
    # tensors' dtypes and shapes, and the C++, Java and Rust rows read it from there.
    lines = "".join(f"{k} {v}\n" for k, v in signature_metadata(signature).items())
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # torch.jit.save is deprecated; the rows load it still
        warnings.simplefilter("ignore")
        torch.jit.save(traced, buffer, _extra_files={SIGNATURE_FILE: lines})
    return buffer.getvalue()


def derived(
    ep: Any, signature: tn.Signature, samples: Mapping[str, np.ndarray],
    reference: Mapping[str, np.ndarray],
) -> dict[str, Callable[[], bytes]]:  # fmt: skip
    """How each artifact is made from the program, by its contract name."""
    from callbench.model.exported_programs import cuda_package_of, executorch_of, package_of

    return {
        art.ONNX: lambda: onnx_of(ep),
        art.TORCHSCRIPT: lambda: torchscript_of(ep, signature, samples, reference),
        AOTI_PACKAGE: lambda: package_of(ep, signature),
        AOTI_CUDA_PACKAGE: lambda: cuda_package_of(ep, signature),
        EXECUTORCH_XNNPACK: lambda: executorch_of(ep),
        EXECUTORCH_PORTABLE: lambda: executorch_of(ep, xnnpack=False),
    }


def prepare(
    path: Path, inputs_path: Path | None = None, needed: Collection[str] | None = None
) -> Path:
    """The checked artifact set in a temporary folder (the caller moves it beside the run):
    the artifacts ``needed`` (by name; None: every one) that can be made from the program."""
    import torch

    ep = load(path)
    inputs, outputs = declared(path, ep)
    batch = batch_of(path, inputs)
    samples = fit_batch(path, batch, samples_for(path, inputs_path, inputs))
    reference = reference_outputs(path, ep, inputs, outputs, batch, samples)
    checked = Checked(path, inputs, outputs, batch, samples, reference)
    makers = derived(ep, checked.signature, samples, reference)
    made = {name: timed(make, name) for name, make in makers.items()
            if needed is None or name in needed}  # fmt: skip
    files = {PROGRAM: path.read_bytes()}
    files.update({name: m.pop("blob") for name, m in made.items() if m["status"] == "ok"})
    return checked.write(files, inputs_path, {
        "kind": KIND,
        "producer": f"torch.export (loaded by torch {torch.__version__})",
        "reference": "the program's module (ep.module()) in eager, under torch.inference_mode()",
        "artifacts": made,
    })  # fmt: skip
