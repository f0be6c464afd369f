"""The artifacts derived from a user's torch.export program, each made on its own: its ONNX
export, a TorchScript trace, AOTInductor packages and ExecuTorch programs.

Each is timed and may fail alone (``timed``): the manifest's ``artifacts`` table
says, for each, its seconds, bytes, or the exporter's first line, and the drivers
of a missing one are recorded as skipped with it. ONNX and TorchScript hold no
path of this machine (path_free).
"""

from __future__ import annotations

import io
import logging
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model import artifacts as art
from callbench.model import tensors as tn
from callbench.model.exported_programs import (
    AOTI_CUDA_PACKAGE,
    AOTI_PACKAGE,
    CUDA_ONLY,
    EXECUTORCH_PORTABLE,
    EXECUTORCH_XNNPACK,
)

# The extra file of a traced program's TorchScript that holds its signature.
SIGNATURE_FILE = "callbench_signature.txt"


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

    from callbench.model.path_free import onnx_without_stack_traces

    logging.getLogger("torch.onnx").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.onnx.export(ep, dynamo=True, verbose=False)
    if program is None:
        raise RuntimeError("torch.onnx.export returned no program")
    proto = program.model_proto
    onnx.checker.check_model(proto, full_check=True)
    return bytes(onnx_without_stack_traces(proto).SerializeToString())


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
    from callbench.model.path_free import torchscript_without_debug_records

    # The signature rides along as an extra file: a TorchScript file says nothing of its
    # tensors' dtypes and shapes, and the C++, Java and Rust rows read it from there.
    lines = "".join(f"{k} {v}\n" for k, v in signature_metadata(signature).items())
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # torch.jit.save is deprecated; the rows load it still
        warnings.simplefilter("ignore")
        torch.jit.save(traced, buffer, _extra_files={SIGNATURE_FILE: lines})
    return torchscript_without_debug_records(buffer.getvalue())


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
