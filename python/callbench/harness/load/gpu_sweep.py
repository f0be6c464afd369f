"""The GPU batch sweep: where a GPU row can run, it and the fastest verified CPU row of each
language are run again at batches 1, 16, 256, 4,096 and 65,536, so the report's "CPU or GPU"
section can find the batch at which the GPU starts to win. The default batch sweep's 1, 100,
10,000 and 1,000,000 would step over a crossover near 4,096. Its points are batch-sweep
records like the others. The GPU rows also join the width sweep (``--widths``, at batch 1),
and at each wider width the same batch sweep runs again (the grid: its records name the
width), so the map says from which batch the GPU wins at every width. Where no GPU row can
run (no device), there is no such sweep, and the default bench takes no longer.

A user's model (``--torch``) has its own: each row goes only as far as the samples its
inputs hold and its own call affords (``sweep_plan``), since a large model's CPU call at
batch 4,096 could take minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from callbench.harness import console
from callbench.harness.load import sweep_plan
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models, run_sweep
from callbench.languages.spec import DriverSpec
from callbench.model.architecture import HIDDEN
from callbench.model.family import Width
from callbench.records.record import Record
from callbench.roles import BATCH_ONE, GPU, Call

BATCHES = (1, 16, 256, 4_096, 65_536)


def batch_one_only(spec: DriverSpec) -> bool:
    """The driver takes one sample a call: the seed's loops as written, and rows marked so."""
    return BATCH_ONE in spec.roles or (spec.seed is not None and spec.seed.call is Call.AS_WRITTEN)


def runs_here(spec: DriverSpec) -> bool:
    """A GPU row that can run here and takes any batch: it joins the sweeps (the GPU batch
    sweep, and the width sweep with the rows ``--swept`` takes)."""
    return GPU in spec.roles and not batch_one_only(spec) and spec.available() is None


def at_width(record: Record, width: int | None) -> bool:
    """The record is of the main group (``width`` None), or of the width sweep's point."""
    if width is None:
        return record.sweep is None
    return record.sweep == {"kind": "width", "value": width}


def drivers(
    specs: Sequence[DriverSpec], records: Sequence[Record], width: int | None = None
) -> list[DriverSpec]:
    """The GPU rows among ``specs`` that can run here and take any batch, then the fastest
    verified CPU row of each language in ``records`` (the main group's, or with ``width``
    the width sweep's at that width); none without a GPU row to run."""
    gpu = [s for s in specs if runs_here(s)]
    if not gpu:
        return []
    by_id = {s.id: s for s in specs}
    best: dict[str, Record] = {}
    for r in records:
        spec = by_id.get(r.id)
        if spec is None or not r.ok or not at_width(r, width) or GPU in spec.roles:
            continue
        if batch_one_only(spec):
            continue
        if r.language not in best or r.median_ns < best[r.language].median_ns:
            best[r.language] = r
    return [*gpu, *(by_id[r.id] for r in best.values())]


def run_grid(
    specs: Sequence[DriverSpec],
    records: Sequence[Record],
    options: RunOptions,
    run_dir: Path,
    widths: Sequence[Width],
) -> list[Record]:
    """The GPU batch sweep at each wider width: its GPU rows and the fastest CPU row of each
    language at that width (``records``: the width sweep's), at the batches its samples
    hold. Nothing without a GPU row to run."""
    done: list[Record] = []
    for width in widths:
        rows = drivers(specs, records, width.hidden)
        if width.hidden == HIDDEN or not rows:
            continue
        held = check_models(width.models).samples
        batches = [b for b in BATCHES if b <= held]
        point = replace(options, models=width.models)
        done += run_sweep("batch", rows, point, run_dir, batches, width=width.hidden)
    return done


def of_program(
    specs: Sequence[DriverSpec], records: Sequence[Record], options: RunOptions, run_dir: Path
) -> list[Record]:
    """The GPU batch sweep of a user's model: the GPU rows that ran verified and each
    language's fastest verified CPU row, each at the batches of ``BATCHES`` its inputs hold
    and its own call affords (``sweep_plan.plan`` from its batch-1 record); the rows that
    afford a batch run together at that point. Each point left out is said once."""
    ran = {r.id: r for r in records if r.sweep is None and r.ok}
    rows = [s for s in drivers(specs, records) if s.id in ran]
    if not any(GPU in s.roles for s in rows):
        return []
    expected = check_models(options.models)
    at: dict[int, list[DriverSpec]] = {}
    for spec in rows:
        planned = sweep_plan.plan([ran[spec.id]], expected.samples,
                                  expected.signature.fixed_batch, BATCHES)  # fmt: skip
        for reason in planned.skipped:
            console.say(f"{spec.id}: GPU sweep point skipped: {reason}")
        for batch in planned.batches:
            at.setdefault(batch, []).append(spec)
    done: list[Record] = []
    for batch in sorted(at):
        done += run_sweep("batch", at[batch], options, run_dir, [batch])
    return done
