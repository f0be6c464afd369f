"""The "CPU or GPU" section: for each model width, the smallest batch at which the best GPU
row costs less per sample than the best CPU row of the same host.

A run's records give points (width, batch): a record's batch, and its width from its sweep
(a width sweep's value, else the reference model's). At
each point the best GPU row (registry role ``gpu``) and the best CPU row are those of least
median per sample. The GPU wins a point only where the two 95% intervals per sample are
apart: a crossover is a claim, not a median's accident. The CPU rows are the same run's,
so a GPU host is compared with its own CPU, never with another host's.

A user's model (``--torch``) has no widths: its section is one row a batch, the best GPU
row and the best CPU row each with its interval per call, and the smallest batch at which
the GPU wins (which may be 1). A CPU host's run of the same model, given to the same
report, adds the rows of that machine that would beat the GPU host's best CPU row there,
told apart as another machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.model.architecture import HIDDEN
from callbench.records.record import Record
from callbench.report.blocks.format import table, times, us

TITLE = "CPU or GPU"


def width_of(record: Record) -> int:
    """A width sweep's value, or the width a batch point of the grid names; every other
    record is of the reference model."""
    sweep = record.sweep or {}
    if sweep.get("kind") == "width":
        return int(sweep["value"])
    return int(sweep.get("width") or HIDDEN)


def on_gpu(record: Record) -> bool:
    from callbench.registry import with_role
    from callbench.roles import GPU

    return any(spec.id == record.id for spec in with_role(GPU))


def is_gpu_floor(record: Record) -> bool:
    """The record is the GPU's per-call floor's (registry role ``gpu_floor``)."""
    from callbench.registry import with_role
    from callbench.roles import GPU_FLOOR

    return any(spec.id == record.id for spec in with_role(GPU_FLOOR))


def calls_the_model(record: Record) -> bool:
    """A verified driver record of a way to call the model: not the GPU's floor, which
    computes nothing and so is on neither side of the choice."""
    return record.kind == "driver" and record.ok and not is_gpu_floor(record)


def per_sample(record: Record) -> tuple[float, float, float]:
    """Median and 95% interval per sample, in ns."""
    low, high = record.interval_ns
    return record.median_ns / record.batch, low / record.batch, high / record.batch


@dataclass(frozen=True)
class Crossing:
    """One width: the smallest batch at which the GPU wins (None: at no batch measured), and
    the best row of each side there (or at the largest batch both ran at)."""

    width: int
    batch: int | None
    gpu: Record
    cpu: Record
    batches: tuple[int, ...]


def _best(records: Sequence[Record]) -> Record | None:
    return min(records, key=lambda r: per_sample(r)[0], default=None)


def decision_map(records: Sequence[Record]) -> list[Crossing]:
    """One crossing per width at which both a GPU row and a CPU row ran verified."""
    points: dict[tuple[int, int], tuple[list[Record], list[Record]]] = {}
    for r in records:
        if calls_the_model(r):
            gpu, cpu = points.setdefault((width_of(r), r.batch), ([], []))
            (gpu if on_gpu(r) else cpu).append(r)
    found = []
    for width in sorted({w for w, _ in points}):
        both = []
        for batch in sorted(b for w, b in points if w == width):
            gpu_best, cpu_best = (_best(side) for side in points[(width, batch)])
            if gpu_best is not None and cpu_best is not None:
                both.append((batch, gpu_best, cpu_best))
        if not both:
            continue
        batches = tuple(b for b, _, _ in both)
        wins = [(b, g, c) for b, g, c in both if per_sample(g)[2] < per_sample(c)[1]]
        batch, gpu_row, cpu_row = wins[0] if wins else both[-1]
        found.append(Crossing(width, batch if wins else None, gpu_row, cpu_row, batches))
    return found


def _figure(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.3g}"


def _ns(record: Record) -> str:
    median, low, high = per_sample(record)
    return f"{_figure(median)} ({_figure(low)}–{_figure(high)})"


def _where(crossing: Crossing) -> str:
    if crossing.batch is not None:
        return f"batch {crossing.batch:,}"
    first, last = crossing.batches[0], crossing.batches[-1]
    return f"not at batch {last:,}" if first == last else f"not at batches {first:,}–{last:,}"


def section(records: Sequence[Record]) -> str:
    """The section's text, or "" when the run holds no verified GPU row."""
    if not any(calls_the_model(r) and on_gpu(r) for r in records):
        return ""
    rows = []
    for c in decision_map(records):
        at = c.batch if c.batch is not None else c.batches[-1]
        rows.append([str(c.width), _where(c), f"`{c.gpu.id}`", _ns(c.gpu), f"`{c.cpu.id}`",
                     _ns(c.cpu), f"{at:,}"])  # fmt: skip
    intro = (
        "For each model width, the smallest batch at which the best GPU row costs less per "
        "sample than the best CPU row, their 95% intervals apart (batches measured: those "
        "of the run's sweeps). Both sides are this run's, so a GPU host is compared with "
        "its own CPU: a CPU host's run elsewhere in this report is not the base. ns per "
        "sample, median and interval, at the batch the last column gives."
    )
    header = ["width", "the GPU wins from", "best GPU row", "ns per sample",
              "best CPU row", "ns per sample", "at batch"]  # fmt: skip
    return intro + "\n\n" + table(header, rows)


@dataclass(frozen=True)
class Point:
    """One batch of a user's model: the best GPU row and the best CPU row of the host."""

    batch: int
    gpu: Record
    cpu: Record

    @property
    def gpu_wins(self) -> bool:
        """The GPU's interval per call lies wholly below the CPU's."""
        return self.gpu.interval_ns[1] < self.cpu.interval_ns[0]


def by_batch(records: Sequence[Record]) -> list[Point]:
    """Each batch at which a GPU row and a CPU row both ran verified, the best of each side
    (least median per call; the main group's and the sweep's records alike)."""
    sides: dict[int, tuple[list[Record], list[Record]]] = {}
    for r in records:
        if calls_the_model(r):
            gpu, cpu = sides.setdefault(r.batch, ([], []))
            (gpu if on_gpu(r) else cpu).append(r)
    return [Point(b, min(g, key=lambda r: r.median_ns), min(c, key=lambda r: r.median_ns))
            for b, (g, c) in sorted(sides.items()) if g and c]  # fmt: skip


def _us(ns: float) -> str:
    """µs as ``format.us`` gives them, with thousands separated (a large model's call)."""
    return f"{ns / 1e3:,.0f}" if ns >= 1e6 else us(ns)


def _per_call(record: Record) -> str:
    low, high = record.interval_ns
    return f"{_us(record.median_ns)} ({_us(low)}–{_us(high)})"


def _beaten_elsewhere(point: Point, host: str, records: Sequence[Record]) -> str:
    """The other machine's CPU rows at the point's batch whose interval lies wholly below
    this host's best CPU row's, fastest first; those that beat its GPU row too say so."""
    faster = sorted((r for r in records if calls_the_model(r) and not on_gpu(r)
                     and r.batch == point.batch
                     and r.interval_ns[1] < point.cpu.interval_ns[0]),
                    key=lambda r: r.median_ns)  # fmt: skip
    found = [f"`{r.id}` {_us(r.median_ns)}" + (" (beats the GPU)" if
             r.interval_ns[1] < point.gpu.interval_ns[0] else "") for r in faster]  # fmt: skip
    return "; ".join(found) if found else f"none on `{host}`"


def program_section(
    records: Sequence[Record], elsewhere: Sequence[tuple[str, Sequence[Record]]] = ()
) -> str:
    """A user's model: one row a batch and the batch from which the GPU wins; with
    ``elsewhere`` (a CPU host's name and its run of the same model), that machine's rows."""
    points = by_batch(records)
    if not points:
        return ("No batch has both a GPU row and a CPU row verified in this run, so the "
                "section has no crossing to give.")  # fmt: skip
    first = next((p for p in points if p.gpu_wins), None)
    if first is not None:
        verdict = (f"The GPU wins from batch {first.batch:,}: `{first.gpu.id}` takes "
                   f"{_per_call(first.gpu)} µs a call there, `{first.cpu.id}` "
                   f"{_per_call(first.cpu)} µs.")  # fmt: skip
    else:
        span = f"{points[0].batch:,}" + (f"–{points[-1].batch:,}" if len(points) > 1 else "")
        verdict = f"The GPU wins at no batch measured ({span})."
    intro = (
        "The best GPU row and the best CPU row of this host at each batch both ran at, µs "
        "per call, median and 95% interval (the same batch on both sides, so their ratio is "
        "per sample too). The GPU wins a batch only where its interval lies wholly below "
        "the CPU's. Both sides are this run's: the GPU host's own CPU."
    )
    header = ["batch", "best GPU row", "µs per call", "best CPU row", "µs per call",
              "CPU ÷ GPU", "the GPU wins"]  # fmt: skip
    for host, _ in elsewhere:
        header.append(f"faster CPU rows on `{host}` (another machine)")
    rows = []
    for p in points:
        row = [f"{p.batch:,}", f"`{p.gpu.id}`", _per_call(p.gpu), f"`{p.cpu.id}`",
               _per_call(p.cpu), times(p.cpu.median_ns / p.gpu.median_ns),
               "yes" if p.gpu_wins else "no"]  # fmt: skip
        row += [_beaten_elsewhere(p, host, other) for host, other in elsewhere]
        rows.append(row)
    text = f"{intro}\n\n{verdict}\n\n{table(header, rows)}"
    if elsewhere:
        text += ("\n\nThe last column is another machine's run of the same model: its times "
                 "are that machine's, a row there that beats this host's CPU says what that "
                 "CPU would do, not what this host's does.")  # fmt: skip
    return text
