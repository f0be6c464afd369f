"""Who else agrees with the reference: a user's ONNX model run again by other implementations.

The reference is ONNX Runtime's CPU result; a cross-check is evidence for it, not a veto. The
onnx package's reference evaluator is asked first (NumPy, written from the spec, no graph
rewrites). It is not always right: it applies opset 13's Softmax (the last axis) to older
models, whose Softmax coerces the input to 2-D at axis 1, and it differs from ONNX Runtime
and OpenVINO by 0.0015 on an opset-9 DenseNet-121 where those two agree within 2e-6. So where
it differs, or cannot run, OpenVINO is asked too. ONNX Runtime stands once one witness agrees
within each output's tolerance; the model is refused when witnesses ran and none agreed, in
one line naming each one's difference and the way on: ``--unwitnessed`` takes ONNX Runtime's
outputs as the reference all the same (a model whose outputs are decided by rounding, such as
the softmax of equal huge logits, has no witness), and everything written from the run says
so (``UNCONFIRMED``). What each said goes into the manifest and the report.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model.onnx_signature import reject

# Samples each witness recomputes (at least one fixed batch).
SAMPLES = 8
# What the manifest, each record and the report say of a reference taken with --unwitnessed.
UNCONFIRMED = "reference not confirmed by a second implementation"
UNWITNESSED = "--unwitnessed"
Arrays = Mapping[str, np.ndarray]
Feeds = Sequence[dict[str, np.ndarray]]
# (the model's bytes, the output names, each batch's inputs) -> each output's values, in order.
Run = Callable[[bytes, list[str], Feeds], dict[str, list[np.ndarray]]]


@dataclass(frozen=True)
class Heard:
    """What one witness said: its worst difference from ONNX Runtime (on ``output``, nearest
    that output's tolerance), or why it could not run."""

    witness: str
    samples: int = 0
    error: float | None = None
    output: str | None = None
    tolerance: float | None = None
    problem: str | None = None

    @property
    def agrees(self) -> bool | None:
        """True or False; None where it could not run."""
        if self.problem is not None or self.error is None or self.tolerance is None:
            return None
        return self.error <= self.tolerance

    def sentence(self) -> str:
        if self.problem is not None:
            return f"{self.witness} cannot run it ({self.problem})"
        if self.agrees:
            return (
                f"{self.witness} agrees on the first {self.samples} samples within {self.error:.3g}"
            )
        return (f"{self.witness} differs by {self.error:.3g} on output {self.output!r} "
                f"(tolerance {self.tolerance:.3g})")  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"witness": self.witness, "agrees": self.agrees, "samples": self.samples,
                "max_abs_error": self.error, "output": self.output,
                "tolerance": self.tolerance, "problem": self.problem}  # fmt: skip


def evaluator_outputs(data: bytes, names: list[str], feeds: Feeds) -> dict[str, list[np.ndarray]]:
    import onnx
    from onnx.reference import ReferenceEvaluator

    evaluator = ReferenceEvaluator(onnx.load_from_string(data))
    got: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for feed in feeds:
        answer: Any = evaluator.run(names, feed)
        for name, values in zip(names, answer, strict=True):
            got[name].append(np.asarray(values))
    return got


def openvino_outputs(data: bytes, names: list[str], feeds: Feeds) -> dict[str, list[np.ndarray]]:
    """OpenVINO's CPU plugin through its ONNX frontend, in f32 (its default on a CPU with bf16
    support is bf16, too coarse for a reference)."""
    import openvino as ov
    import openvino.properties.hint as hints
    from openvino.frontend import FrontEndManager

    with tempfile.TemporaryDirectory(prefix="callbench-witness-") as tmp:
        path = Path(tmp) / "model.onnx"
        path.write_bytes(data)  # the frontend reads a file (external data beside it)
        frontend = FrontEndManager().load_by_framework("onnx")
        model = frontend.convert(frontend.load(str(path)))
    compiled = ov.Core().compile_model(model, "CPU", {hints.inference_precision: ov.Type.f32})
    got: dict[str, list[np.ndarray]] = {n: [] for n in names}
    request = compiled.create_infer_request()
    for feed in feeds:
        answer = request.infer(feed)
        for name in names:
            got[name].append(np.array(answer[compiled.output(name)]))
    return got


WITNESSES: tuple[tuple[str, Run], ...] = (
    ("the onnx reference evaluator", evaluator_outputs),
    ("OpenVINO", openvino_outputs),
)


def _hear(witness: str, run: Run, data: bytes, feeds: Feeds, reference: Arrays,
          tolerances: Mapping[str, float]) -> Heard:  # fmt: skip
    names = list(reference)
    try:
        got = run(data, names, feeds)
    except Exception as exc:  # an operator it lacks, a graph it refuses: it says nothing
        return Heard(witness, problem=first_line(exc)[:200])
    worst: tuple[float, float, str] | None = None  # (error / tolerance, error, output)
    samples = 0
    for name in names:
        mine = np.concatenate(got[name]).astype(np.float64)
        samples = len(mine)
        theirs = np.asarray(reference[name][: len(mine)]).astype(np.float64)
        if mine.shape != theirs.shape:
            return Heard(witness, problem=f"output {name!r} came back {list(mine.shape)}, "
                                          f"not {list(theirs.shape)}")  # fmt: skip
        diff = np.abs(mine - theirs)
        error = float(np.nan_to_num(diff, nan=np.inf).max()) if diff.size else 0.0
        ratio = (
            error / tolerances[name] if tolerances[name] > 0 else (0.0 if error == 0 else np.inf)
        )
        if worst is None or ratio > worst[0]:
            worst = (ratio, error, name)
    assert worst is not None
    _, error, output = worst
    return Heard(witness, samples, error, output, tolerances[output])


def cross_check(path: Path, data: bytes, samples: Arrays, reference: Arrays,
                tolerances: Mapping[str, float], batch: str | int,
                witnesses: Sequence[tuple[str, Run]] = WITNESSES,
                unwitnessed: bool = False) -> list[Heard]:  # fmt: skip
    """Each witness asked in turn until one agrees with ONNX Runtime's ``reference`` on the
    first samples; UsageError (one line, naming each difference and ``--unwitnessed``) when
    some ran and none did, unless ``unwitnessed``."""
    step = batch if isinstance(batch, int) else 1
    count = min(max(SAMPLES, step), len(next(iter(samples.values()))))
    feeds = [{k: v[i : i + step] for k, v in samples.items()}
             for i in range(0, count - count % step, step)]  # fmt: skip
    heard: list[Heard] = []
    for witness, run in witnesses:
        heard.append(_hear(witness, run, data, feeds, reference, tolerances))
        if heard[-1].agrees:
            return heard
    if any(h.agrees is False for h in heard) and not unwitnessed:
        raise reject(path, "no second implementation agrees with ONNX Runtime's outputs, so "
                           "the reference would not be trustworthy: "
                           + "; ".join(h.sentence() for h in heard)
                           + f" ({UNWITNESSED} takes ONNX Runtime's outputs as the reference "
                           "all the same)")  # fmt: skip
    return heard


def unconfirmed(heard: Sequence[Heard]) -> bool:
    """Whether the reference was taken though witnesses ran and none agreed
    (``--unwitnessed``)."""
    return not any(h.agrees for h in heard) and any(h.agrees is False for h in heard)


def summary(heard: Sequence[Heard]) -> str:
    """The cross-check in one sentence, for the manifest and the report."""
    said = "; ".join(h.sentence() for h in heard)
    if any(h.agrees for h in heard):
        if heard[-1].agrees and len(heard) > 1:
            return f"{said}: ONNX Runtime's outputs stand, with {heard[-1].witness} as witness"
        return said
    if unconfirmed(heard):  # taken all the same, with --unwitnessed
        return f"{said}: ONNX Runtime's outputs taken as the reference ({UNCONFIRMED})"
    return f"{said}: no witness could check ONNX Runtime's outputs"
