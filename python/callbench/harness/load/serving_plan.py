"""What ``serve-rate`` serves when no row is named: each language's best rows, as the callers
sweep's plan picks them, within a budget.

Rows: in each language whose kit speaks paced rounds, the fastest verified row at one caller
among those the callers sweep takes (callers_plan.py: a runtime's row that takes callers,
timed in this run's main group first), with its callers-only twins (the other holding: a
model per caller where it shares one). Points, in the order they are kept: each best row at
one caller; each at C callers (C the usable cores); in Python and Node.js (whose services
run N worker processes: callers_plan.SERVED_AS_PROCESSES) each best row in C processes,
dealt as their fronts deal (dealing.py); then each twin at C callers.

Budget: a row and N takes about ROW_AND_N_S here (a closed loop, a curve and REPEATS
searches); the points past the budget (``--budget``, default BUDGET_MIN minutes) are
skipped, each said once with why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.harness.load import callers_plan, dynamic_batcher
from callbench.harness.load.dynamic_batcher import Batcher
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY
from callbench.runtimes import engine

# About how long one row and N takes at serve-rate's defaults here: run
# 20261204T1950Z-serving-mlp-languages served 11 rows and N in 32 min 47 s (3.0 min each).
ROW_AND_N_S = 180.0
BUDGET_MIN = 45.0


@dataclass(frozen=True)
class ServingPoint:
    """One row served at a rate: at ``callers`` callers in each of ``processes`` copies."""

    spec: DriverSpec
    callers: int
    processes: int = 1
    batcher: Batcher | None = None  # contract 7: one caller through its kit's batcher
    threads: int = 1  # intra-op threads (bench's serving phase: one caller of C of them)

    @property
    def label(self) -> str:
        if self.batcher is not None:
            return f"{self.spec.id} {self.batcher.label}"
        if self.processes > 1:
            return f"{self.spec.id} x{self.processes} processes"
        if self.threads > 1:
            return f"{self.spec.id} x{self.callers} at {self.threads} intra-op threads"
        return f"{self.spec.id} x{self.callers}"


@dataclass(frozen=True)
class ServingPlan:
    kept: list[ServingPoint]
    skipped: list[tuple[ServingPoint, str]]  # each with why

    @property
    def estimate_s(self) -> float:
        return ROW_AND_N_S * len(self.kept)


def candidates(specs: Sequence[DriverSpec], languages: Sequence[str]) -> list[DriverSpec]:
    """The rows whose one-caller times pick the best: those the callers sweep takes, in the
    kits that serve, without the twins (they run at N > 1 only)."""
    return [s for s in specs if s.callers is not None and callers_plan.runs_a_runtime(s)
            and language_key(s) in languages and CALLERS_ONLY not in s.roles]  # fmt: skip


def best_rows(specs: Sequence[DriverSpec], done: Sequence[Record]) -> list[DriverSpec]:
    """Per language (in the registry's order), its fastest verified row of ``done`` (the
    main group's records) among ``specs``."""
    fastest = callers_plan.fastest(specs, done)
    best: dict[str, Record] = {}
    for (language, _), record in fastest.items():
        if language not in best or record.median_ns < best[language].median_ns:
            best[language] = record
    chosen = {r.id for r in best.values()}
    return [s for s in specs if s.id in chosen]


def plan(
    specs: Sequence[DriverSpec], done: Sequence[Record], cores: int, budget_s: float,
    batchers: Sequence[Batcher] = (),
) -> ServingPlan:  # fmt: skip
    """The points of each language's best rows (among ``specs``, every row the registry
    has), in order, those past ``budget_s`` skipped; with ``batchers``, each best row whose
    kit has one through each, after its callers."""
    best = best_rows(specs, done)
    twins = [s for s in specs if CALLERS_ONLY in s.roles and s.callers is not None
             and any(language_key(s) == language_key(b) and engine(s.runtime) == engine(b.runtime)
                     for b in best)]  # fmt: skip
    points = [ServingPoint(s, 1) for s in best]
    if cores > 1:
        points += [ServingPoint(s, cores) for s in best]
    points += [ServingPoint(s, 1, batcher=way) for s in best for b in batchers
               for way in dynamic_batcher.ways(s, b)]  # fmt: skip
    if cores > 1:
        points += [ServingPoint(s, 1, cores) for s in best
                   if language_key(s) in callers_plan.SERVED_AS_PROCESSES]  # fmt: skip
        points += [ServingPoint(s, cores) for s in twins]
    fits = max(0, int(budget_s // ROW_AND_N_S))
    why = (f"past the budget of {budget_s / 60:g} min (about {ROW_AND_N_S / 60:g} min a row and "
           f"N; {fits} fit)")  # fmt: skip
    return ServingPlan(points[:fits], [(p, why) for p in points[fits:]])
