"""bench's serving phase: per language, the ways of using the cores that its closed loop left
in contention, served at a rate within the run's p99 bound in coarse mode
(harness/load/ways_plan.py): first each language's batcher pass (its batchers served as
curves, the one that passed most chosen), then every row and N taking turns
(rows_in_turn.py), each with COARSE_REPEATS searches of short windows. ``callbench
serve-rate`` serves any of them at the full pace (5 searches, windows of 2 s)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path

from callbench.cli.serve_rate import bound_of_run, pinned_for, summary
from callbench.harness import console, machine
from callbench.harness.load import rows_in_turn, serving, ways_plan
from callbench.harness.load.serving_plan import ServingPoint
from callbench.harness.options import RunOptions
from callbench.harness.processes import kill_all
from callbench.harness.run import check_models
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record


def served_ways(
    specs: Sequence[DriverSpec], done: Sequence[Record], swept: Sequence[Record],
    options: RunOptions, run_dir: Path, p99_ns: float | None = None, quick: bool = False,
    budget_min: float = ways_plan.BUDGET_MIN,
) -> list[Record]:  # fmt: skip
    """Serve the ways ``swept`` (the callers sweep's and the intra-op point's records) leaves
    in contention, from ``done`` (the main group: each language's best row at one caller);
    with ``quick``, each language's one caller only, one search (no interval). The records,
    skipped ones with why."""
    expected = check_models(options.models)
    cores = len(machine.usable_cpus())
    one_caller = [r for r in done if r.ok and r.sweep is None]
    best = {s.id for s in ways_plan.best_rows(specs, one_caller)}
    bound, said = bound_of_run(p99_ns, options.models, [r for r in one_caller if r.id in best])
    planned = ways_plan.plan(specs, one_caller, swept, cores, bound, options.models,
                             budget_min * 60)  # fmt: skip
    rows, passes = planned.rows, planned.passes
    if quick:
        rows, passes = [w.one for w in planned.languages], {}
    console.say(f"serving (coarse): {len(rows)} rows and N and {sum(map(len, passes.values()))} "
                f"batcher curves, about {planned.estimate_s / 60:.0f} min, p99 within "
                f"{bound / 1e6:g} ms ({said})")  # fmt: skip
    not_served = [] if quick else planned.not_served
    for line in [] if quick else planned.said:
        console.say(f"  serving: not served: {line}")

    def row_of(point: ServingPoint, skip: str | None = None) -> serving.RowAtRate:
        return serving.RowAtRate(
            point.spec, point.callers, replace(options, threads=point.threads), run_dir,
            expected, bound, said, 1 if quick else None, point.processes, skip=skip,
            batcher=point.batcher, coarse=True,
        )  # fmt: skip

    pinned = pinned_for(options)
    try:
        chosen = [_batcher_pass(points, row_of, pinned, bound) for points in passes.values()]
        served = [row_of(point) for point in rows] + [row for row in chosen if not row.ended]
        records = [row.record for row in chosen if row.ended]  # none passed: skipped
        for point, why in not_served:  # recorded as skipped, saying why
            console.say(f"  {point.label}: not served: {why}")
            skipped = row_of(point, why)
            skipped.begin()
            records.append(skipped.record)
        records += rows_in_turn.serve_in_turn(
            served, pinned, lambda row: console.say(f"  {row.label}: {summary(row.record)}")
        )
    finally:
        kill_all()
    return records


def _batcher_pass(
    points: Sequence[ServingPoint],
    row_of: Callable[[ServingPoint, str | None], serving.RowAtRate],
    pinned: Callable[[serving.RowAtRate], AbstractContextManager[None]], bound_ns: float,
) -> serving.RowAtRate:  # fmt: skip
    """One language's batchers each served as a curve only (loaded one at a time), then the
    B whose curve passed most at the pass's other D (ways_plan.other_delays); the row of the
    one whose curve passed most, not yet begun, carrying what was tried (none passed: the
    largest B's row, recorded as skipped, saying why)."""
    tried: list[tuple[ServingPoint, float | None]] = []

    def curve(point: ServingPoint) -> None:
        row = row_of(point, None)
        with pinned(row):
            row.begin()
        rate = row.curve_rate()
        row.drop()
        console.say(f"  {row.label}: its curve passed {rate or 0:,.0f}/s (coarse pass)")
        tried.append((point, rate))

    for point in points:
        curve(point)
    passed = [(p, r) for p, r in tried if r is not None]
    if passed:
        for point in ways_plan.other_delays(max(passed, key=lambda found: found[1] or 0.0)[0],
                                            bound_ns):  # fmt: skip
            curve(point)
        passed = [(p, r) for p, r in tried if r is not None]
    if not passed:
        tried_at = ", ".join(p.batcher.label.removeprefix("batcher ") for p in points
                             if p.batcher is not None)  # fmt: skip
        why = (f"in the coarse pass no batcher's curve ({tried_at}, each at shares of its own "
               "closed loop) passed a point within the bound; callbench serve-rate --batcher "
               "serves it at the full pace (longer windows, more searches)")  # fmt: skip
        console.say(f"  {points[0].spec.id}: {why}")
        skipped = row_of(points[-1], why)
        skipped.begin()
        return skipped
    point, _ = max(passed, key=lambda found: found[1] or 0.0)
    row = row_of(point, None)
    row.chosen_from = [{"batch": p.batcher.batch, "max_delay_us": p.batcher.max_delay_us,
                        "gathered": p.batcher.gathered, "curve_rate": r}
                       for p, r in tried if p.batcher is not None]  # fmt: skip
    return row
