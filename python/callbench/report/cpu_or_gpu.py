"""The "CPU or GPU" section: for each model width, the smallest batch at which the best GPU
row costs less per sample than the best CPU row of the same host.

A run's records give points (width, batch): a record's batch, and its width from its sweep
(a width sweep's value, else the reference model's). At
each point the best GPU row (registry role ``gpu``) and the best CPU row are those of least
median per sample. The GPU wins a point only where the two 95% intervals per sample are
apart: a crossover is a claim, not a median's accident. The CPU rows are the same run's,
so a GPU host is compared with its own CPU, never with another host's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.model.architecture import HIDDEN
from callbench.records.record import Record
from callbench.report.format import table

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
        if r.kind == "driver" and r.ok:
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
    if not any(r.kind == "driver" and r.ok and on_gpu(r) for r in records):
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
