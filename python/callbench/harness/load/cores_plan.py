"""How best to use the cores, planned here and nowhere else: which rows run again, and how.

A user with C cores has three ways to spend them on one model: C callers of one intra-op
thread each (the callers sweep's point at N = C), one caller with C intra-op threads, or one
caller of one thread batching. Per language, the row with the most calls a second at N = C
(threads or processes) runs the two other ways: at C intra-op threads and batch 1 (sweep
kind "intra-op"), and at one thread batching (kind "batching"), at batch C and at the batch
sweep's best point for its runtime (the batch of the most samples a second among that
runtime's swept rows); a point the batch sweep already ran for the row is not run again.
A callers-only row (a model per caller) is at one caller its runtime's row sharing one.
The report (report/sections/ways_of_the_cores.py) sets the ways side by side in samples a second.

A user's model: a batch point runs only where its estimated call (batch x the row's
batch-1 median) stays within the batch sweep's budget and the inputs hold its samples,
each skipped point said once; a model of a fixed batch has no batch-1 point to compare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from callbench.harness.load.sweep_plan import CALL_BUDGET_S
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY
from callbench.runtimes import engine


@dataclass(frozen=True)
class CoresPlan:
    rows: list[DriverSpec]  # each language's best row at N = the cores
    intra_op: int  # the intra-op threads of the one-caller point: the cores (none at 1)
    batches: dict[int, list[DriverSpec]]  # batch: the rows that run at it
    skipped: list[str]  # one line a skipped point


def best_at_the_cores(swept: Sequence[Record], cores: int) -> dict[str, Record]:
    """Per language, the verified point of the callers sweep (threads or processes) at
    N = ``cores`` with the most calls a second."""
    found: dict[str, Record] = {}
    for r in swept:
        at = r.sweep is not None and r.sweep["kind"] in ("callers", "processes")
        if not (r.ok and at and r.sweep is not None and r.sweep["value"] == cores):
            continue
        if r.language not in found or r.median_ns < found[r.language].median_ns:
            found[r.language] = r
    return found


def best_batch(batch_sweep: Sequence[Record], runtime: str) -> int | None:
    """The batch of the most samples a second among the batch sweep's verified points of
    ``runtime``'s engine (any language: a large model's cost is the runtime's)."""
    mine = [r for r in batch_sweep
            if r.ok and r.sweep is not None and engine(r.runtime) == engine(runtime)]  # fmt: skip
    best = max(mine, key=lambda r: r.batch * 1e9 / r.median_ns, default=None)
    return best.batch if best is not None else None


def at_one_caller(
    spec: DriverSpec, specs: Sequence[DriverSpec], one_caller: Mapping[str, Record]
) -> DriverSpec:
    """The row that is ``spec`` at one caller: itself, or for a callers-only row (a model
    per caller), its language's fastest row of the same runtime that ran at one caller."""
    if CALLERS_ONLY not in spec.roles:
        return spec
    same = [s for s in specs if CALLERS_ONLY not in s.roles and s.id in one_caller
            and language_key(s) == language_key(spec)
            and engine(s.runtime) == engine(spec.runtime)]  # fmt: skip
    return min(same, key=lambda s: one_caller[s.id].median_ns, default=spec)


def plan(
    specs: Sequence[DriverSpec],
    one_caller: Mapping[str, Record],
    swept: Sequence[Record],
    batch_sweep: Sequence[Record],
    cores: int,
    samples: int,
) -> CoresPlan:
    """The points of ``specs`` (the chosen drivers) from the callers sweep's records
    (``swept``), the batch sweep's, the main group's (``one_caller``: id to batch-1 record),
    the machine's cores and the samples the inputs hold."""
    by_id = {s.id: s for s in specs}
    best = best_at_the_cores(swept, cores)
    rows = [at_one_caller(by_id[r.id], specs, one_caller)
            for _, r in sorted(best.items()) if r.id in by_id]  # fmt: skip
    batches: dict[int, list[DriverSpec]] = {}
    skipped: list[str] = []
    ran = {(r.id, r.batch) for r in batch_sweep if r.ok}
    for spec in rows:
        base = one_caller.get(spec.id)
        call_s = base.median_ns / 1e9 if base is not None else 0.0
        wanted = sorted({cores, best_batch(batch_sweep, spec.runtime) or cores})
        for b in wanted:
            if (spec.id, b) in ran or b == 1:
                continue
            if b > samples:
                skipped.append(f"{spec.id}: batch {b:,}: needs {b:,} samples a call; the "
                               f"inputs hold {samples:,}")  # fmt: skip
            elif b * call_s > CALL_BUDGET_S:
                skipped.append(f"{spec.id}: batch {b:,}: a call would take up to "
                               f"{b * call_s:.3g} s, past the {CALL_BUDGET_S:g} s "
                               "budget")  # fmt: skip
            else:
                batches.setdefault(b, []).append(spec)
    return CoresPlan(rows, cores if cores > 1 else 0, dict(sorted(batches.items())), skipped)
