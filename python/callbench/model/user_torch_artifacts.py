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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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


def timed(make: Callable[[], bytes | PerBatch | Planned], name: str = "") -> dict[str, Any]:
    """An artifact made, with its seconds and bytes, or the exporter's first line (or, for
    one made on a CUDA device only, where there is none, the reason it was not tried). Its
    ``blob``: the file's bytes, or for traces per batch each file's by name."""
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
    seconds = round(time.perf_counter() - start, 3)
    if isinstance(blob, Planned):
        return {"status": "ok", "seconds": seconds, "bytes": len(blob.blob), **blob.about(),
                "blob": blob.blob}  # fmt: skip
    if isinstance(blob, PerBatch):
        files = blob.files()
        return {"status": "ok", "seconds": seconds, "bytes": sum(map(len, files.values())),
                **blob.about(), "blob": files}  # fmt: skip
    return {"status": "ok", "seconds": seconds, "bytes": len(blob), "blob": blob}


@dataclass(frozen=True)
class Planned:
    """An ExecuTorch program and the largest batch its memory is planned for: ExecuTorch
    plans each tensor at its upper bound, and its method refuses a larger batch at load (the
    policy-value program of 20261205T0125Z-policy-value-model, its batch exported unbounded,
    was planned for 15)."""

    blob: bytes
    largest_batch: int | None  # None: its first input has no dimension

    def about(self) -> dict[str, Any]:
        """The artifacts table's words for it (the manifest)."""
        return {} if self.largest_batch is None else {"largest_batch": self.largest_batch}


def planned(blob: bytes) -> Planned:
    """``blob`` with the largest batch of its forward's first input, read by ExecuTorch's own
    runtime."""
    from executorch.runtime import Runtime

    sizes = Runtime.get().load_program(blob).metadata("forward").input_tensor_meta(0).sizes()
    return Planned(blob, int(sizes[0]) if sizes else None)


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


# Where a trace bakes its batch in, the traces made, one a batch: the run's own batch first
# (the main table, the callers sweep), then the others the run calls, smallest first, while
# the traces so far and the next one's estimate (the last one's seconds scaled by the batch)
# stay within this budget.
TRACE_BUDGET_S = 30.0


class BakedInError(RuntimeError):
    """A trace that does not give the program's outputs at another batch than its own."""


@dataclass(frozen=True)
class PerBatch:
    """One trace per batch, where one trace of every batch baked the batch in."""

    traces: dict[int, bytes]  # batch -> the trace's file
    why: str  # the one trace's failure
    left_out: list[str]  # a line for each batch not traced

    def files(self) -> dict[str, bytes]:
        return {art.trace_at_batch(art.TORCHSCRIPT, b): blob for b, blob in self.traces.items()}

    def about(self) -> dict[str, Any]:
        """The artifacts table's words for it (the manifest)."""
        return {"traced_at": sorted(self.traces), "files": sorted(self.files()),
                "left_out": self.left_out, "why": self.why, "note": BAKED_NOTE}  # fmt: skip


# What each TorchScript record and the artifacts table say of a trace made for one batch.
BAKED_NOTE = "traced at batch B: runs at that batch only"


def traced_note(batch: int) -> str:
    return BAKED_NOTE.replace("batch B", f"batch {batch:,}")


def torchscript_of(
    ep: Any, signature: tn.Signature, samples: Mapping[str, np.ndarray],
    reference: Mapping[str, np.ndarray], batches: Sequence[int] = (1,),
) -> bytes | PerBatch:  # fmt: skip
    """``torch.jit.trace`` of the program's module at a batch of 2 (its fixed batch, if it has
    one), checked against the reference at a batch of 3: tracing records the sizes it sees,
    so a module that baked the example's batch in is not run at the wrong size. Such a
    module is traced again at each of ``batches`` (the batches the run calls, its own
    first), each checked at its own batch (``PerBatch``)."""
    count = len(next(iter(samples.values())))
    if fixed := signature.fixed_batch:
        return saved(checked_trace(ep, signature, samples, reference, fixed, fixed), signature)
    try:
        traced = checked_trace(ep, signature, samples, reference, min(2, count), min(3, count))
    except BakedInError as exc:
        return per_batch(ep, signature, samples, reference, batches, str(exc))
    return saved(traced, signature)


def per_batch(
    ep: Any, signature: tn.Signature, samples: Mapping[str, np.ndarray],
    reference: Mapping[str, np.ndarray], batches: Sequence[int], why: str,
) -> PerBatch:  # fmt: skip
    """A trace at each of ``batches`` that the samples hold and the budget allows, the first
    always; each checked against the program at its own batch, on other samples than it was
    traced on where the samples hold them."""
    count = len(next(iter(samples.values())))
    wanted = list(dict.fromkeys([batches[0], *sorted(batches[1:])]))
    traces: dict[int, bytes] = {}
    left_out: list[str] = []
    spent, last = 0.0, None
    for b in wanted:
        if b > count:
            left_out.append(f"batch {b:,}: the inputs hold {count:,} samples")
            continue
        estimate = last[1] * b / last[0] if last is not None else 0.0  # none for the first
        if last is not None and spent + estimate > TRACE_BUDGET_S:
            left_out.append(f"batch {b:,}: a trace would take about {estimate:.3g} s, past what "
                            f"is left of the {TRACE_BUDGET_S:g} s budget")  # fmt: skip
            continue
        began = time.perf_counter()
        check_from = b if 2 * b <= count else 0
        traced = checked_trace(ep, signature, samples, reference, b, b, check_from)
        traces[b] = saved(traced, signature)
        last = (b, time.perf_counter() - began)
        spent += last[1]
    return PerBatch(traces, why, left_out)


def checked_trace(
    ep: Any, signature: tn.Signature, samples: Mapping[str, np.ndarray],
    reference: Mapping[str, np.ndarray], trace_at: int, check_at: int, check_from: int = 0,
) -> Any:  # fmt: skip
    """The module traced on the first ``trace_at`` samples, checked against the reference on
    ``check_at`` samples from ``check_from`` (``BakedInError`` where it gives other outputs)."""
    import torch

    def batch(start: int, n: int) -> tuple[Any, ...]:
        return tuple(torch.from_numpy(samples[t.name][start : start + n])
                     for t in signature.inputs)  # fmt: skip

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trace: Any = torch.jit.trace
        traced = trace(ep.module(), batch(0, trace_at), check_trace=False)
        try:
            got = traced(*batch(check_from, check_at))
        except Exception as exc:  # the interpreter's own line is its last
            last = [ln.strip() for ln in str(exc).splitlines() if ln.strip()] or [repr(exc)]
            raise BakedInError(f"traced at batch {trace_at}, it fails at batch {check_at} "
                          f"({last[-1]}): tracing baked a size in") from None  # fmt: skip
    leaves = got if isinstance(got, tuple | list) else (got,)
    if len(leaves) != len(signature.outputs):
        raise RuntimeError(f"the traced module gives {len(leaves)} outputs, the program "
                           f"{len(signature.outputs)}")  # fmt: skip
    for t, y in zip(signature.outputs, leaves, strict=True):
        want = reference[t.name][check_from : check_from + check_at]
        if tuple(y.shape) != want.shape:
            raise BakedInError(f"traced at batch {trace_at}, it answers {t.name!r} at batch "
                          f"{check_at} with {list(y.shape)}, not {list(want.shape)}: "
                          "tracing baked a size in")  # fmt: skip
        error = float(np.max(np.abs(y.numpy().astype("f8") - want.astype("f8")), initial=0))
        if error > (t.tolerance or 0):
            raise BakedInError(f"traced at batch {trace_at}, it answers {t.name!r} at batch "
                          f"{check_at} {error:.3g} away from the program (tolerance "
                          f"{t.tolerance:.3g}): tracing baked something in")  # fmt: skip
    return traced


def saved(traced: Any, signature: tn.Signature) -> bytes:
    """The trace's file, its signature in an extra file, free of this machine's paths."""
    import torch

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
    reference: Mapping[str, np.ndarray], batches: Sequence[int] = (1,),
) -> dict[str, Callable[[], bytes | PerBatch | Planned]]:  # fmt: skip
    """How each artifact is made from the program, by its contract name (``batches``: those
    the run calls, its own first, where a trace is made per batch)."""
    from callbench.model.exported_programs import cuda_package_of, executorch_of, package_of

    return {
        art.ONNX: lambda: onnx_of(ep),
        art.TORCHSCRIPT: lambda: torchscript_of(ep, signature, samples, reference, batches),
        AOTI_PACKAGE: lambda: package_of(ep, signature),
        AOTI_CUDA_PACKAGE: lambda: cuda_package_of(ep, signature),
        EXECUTORCH_XNNPACK: lambda: planned(executorch_of(ep)),
        EXECUTORCH_PORTABLE: lambda: planned(executorch_of(ep, xnnpack=False)),
    }
