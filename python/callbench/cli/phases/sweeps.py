"""bench's sweeps: the batch and thread sweeps of each runtime's fastest row (and the GPU's
batch sweep), or of a user's model as far as its own call allows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from callbench.harness import console
from callbench.harness.load import gpu_sweep, sweep_plan
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models, run_sweep
from callbench.languages.spec import DriverSpec
from callbench.records.phases import Phases
from callbench.records.record import Record
from callbench.registry import SWEEP_DRIVERS
from callbench.roles import GPU

# --quick: each sweep at a few points, as a smoke test.
QUICK_SWEEPS = {"batch": [1, 1000, 1_000_000], "threads": [1, 2]}


@dataclass(frozen=True)
class Swept:
    """What the sweeps ran: the GPU rows and the swept rows (the widths take them again),
    and the batch sweep's records (the ways of the cores batch at its best point)."""

    on_gpu: list[DriverSpec]
    sweepers: list[DriverSpec]
    batched: list[Record]


def sweeps(
    specs: Sequence[DriverSpec], done: Sequence[Record], options: RunOptions, run_dir: Path,
    phases: Phases, quick: bool,
) -> Swept:  # fmt: skip
    """The GPU batch sweep where a GPU row ran, then the batch and thread sweeps of the
    chosen rows marked swept(...) (a few points each with ``quick``)."""
    batched: list[Record] = []
    with phases.timed("sweeps"):
        on_gpu = gpu_sweep.drivers(specs, done)
        if on_gpu:
            run_sweep("batch", on_gpu, options, run_dir, gpu_sweep.BATCHES)
        sweepers = [s for s in specs if s.id in SWEEP_DRIVERS]
        kinds = QUICK_SWEEPS if quick else {"batch": None, "threads": None}
        for kind, values in kinds.items():
            if sweepers:
                swept = run_sweep(kind, sweepers, options, run_dir, values)
                batched += swept if kind == "batch" else []
    return Swept(on_gpu, sweepers, batched)


def of_user_model(
    specs: Sequence[DriverSpec], done: Sequence[Record], options: RunOptions, run_dir: Path,
    phases: Phases,
) -> list[Record]:  # fmt: skip
    """The batch and thread sweeps of a user's model: each runtime's fastest CPU row, as far
    as its own call allows (sweep_plan), each skipped point said once; where a GPU row ran,
    first the GPU batch sweep (gpu_sweep.of_program). The batch points' records."""
    expected = check_models(options.models)
    by_id = {s.id: s for s in specs}
    batched: list[Record] = []
    with phases.timed("sweeps"):
        gpu_sweep.of_program(specs, done, options, run_dir)
        for row in sweep_plan.sweepers([r for r in done if GPU not in by_id[r.id].roles]):
            planned = sweep_plan.plan([row], expected.samples, expected.signature.fixed_batch)
            for reason in planned.skipped:
                console.say(f"{row.id}: sweep point skipped: {reason}")
            spec = [by_id[row.id]]
            batched += row_sweeps(row, spec, planned, options, run_dir)
    return batched


def row_sweeps(
    row: Record, spec: Sequence[DriverSpec], planned: sweep_plan.SweepPlan,
    options: RunOptions, run_dir: Path,
) -> list[Record]:  # fmt: skip
    """One row's batch points, each one's time setting the next one's estimate (a point past
    the budget at the dearest sample so far ends them, said once), then its thread sweep at
    the batch that estimate allows; each point's rounds within its budget. The batch
    points' records."""
    seen = sweep_plan.Measured(row.median_ns / 1e9 / row.batch)
    batched: list[Record] = []
    for b in planned.batches:
        if not seen.fits(b):
            console.say(f"{row.id}: sweep point skipped: batch {b:,}: a call would take about "
                        f"{seen.call_s(b):.3g} s at the dearest sample timed so far, past the "
                        f"{sweep_plan.CALL_BUDGET_S:g} s budget")  # fmt: skip
            break
        rounds = sweep_plan.rounds_within(seen.call_s(b), options.rounds)
        swept = run_sweep("batch", spec, replace(options, rounds=rounds), run_dir, [b])
        seen.saw(swept)
        batched += swept
    at = seen.thread_batch(planned.thread_batch)
    rounds = sweep_plan.rounds_within(seen.call_s(at), options.rounds)
    run_sweep("threads", spec, replace(options, rounds=rounds), run_dir, thread_batch=at)
    return batched
