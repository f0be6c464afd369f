"""The callers sweep of ``bench``, planned here and nowhere else: which rows, at which N,
in threads or in processes.

Rows: in each language, each runtime's fastest verified row of the main group (batch 1,
one intra-op thread) among those that take callers (their registry line's
``registry.callers``); not the hand-written floors (they call no runtime), not the plain
independent callers (the report sets those beside the kit's rows on request), not the
GPU's. Beside each, its callers-only twins of the same language and runtime (a model per
caller where the fastest shares one), which run at N > 1 alone.

Counts: one caller, then the powers of two below the cores, the cores and twice them: 1, 2
and 4 on this 2-core machine; 1, 2, 4, 8, 16 and 32 on a 16-core host. Past the cores the
callers take turns on them, which is what a service that oversubscribes sees.

Processes: the same rows in the languages that serve a model that way (gunicorn's or
uvicorn's workers for Python; Node's cluster, once its kit takes callers), at each count
above one, without the twins (each copy holds its own model anyway); their one caller is
the threads' first point. (``callbench run --processes`` runs any row, callers or not.)

Rounds: each point runs half the run's rounds (11 of 21), which keeps a warm default bench
within 15 minutes here; its median's 95% interval is then between order statistics 2 and 10
(of 11) rather than 6 and 16 (of 21): wider, stated in the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY, FLOOR, GPU
from callbench.runtimes import engine

# The languages whose services often run N copies of the program, one model each.
SERVED_AS_PROCESSES = ("python", "node")


@dataclass(frozen=True)
class CallersPlan:
    counts: list[int]
    threads: list[DriverSpec]  # each at every count (a callers-only twin above one)
    processes: list[DriverSpec]  # each at every count above one


def rounds(asked: int) -> int:
    """A point's rounds: half the run's, rounded up."""
    return (asked + 1) // 2


def caller_counts(cores: int) -> list[int]:
    """1, the powers of two below ``cores``, ``cores`` and twice them."""
    counts = {1, cores, 2 * cores}
    n = 2
    while n < cores:
        counts.add(n)
        n *= 2
    return sorted(counts)


def runs_a_runtime(spec: DriverSpec) -> bool:
    """Not a hand-written floor (it calls no runtime), a plain caller, or a GPU row."""
    return (FLOOR not in spec.roles and GPU not in spec.roles
            and not spec.id.startswith("independent-"))  # fmt: skip


def fastest(specs: Sequence[DriverSpec], done: Sequence[Record]) -> dict[tuple[str, str], Record]:
    """Per (language, runtime), the fastest verified main-group record among ``specs``."""
    by_id = {s.id: s for s in specs}
    found: dict[tuple[str, str], Record] = {}
    for r in done:
        spec = by_id.get(r.id)
        if spec is None or not r.ok or r.sweep is not None:
            continue
        key = (language_key(spec), engine(spec.runtime))
        if key not in found or r.median_ns < found[key].median_ns:
            found[key] = r
    return found


def plan(specs: Sequence[DriverSpec], done: Sequence[Record], cores: int) -> CallersPlan:
    """The sweep of ``specs`` (the chosen drivers) from ``done`` (their main group's records)."""
    order = {s.id: n for n, s in enumerate(specs)}  # the registry's order
    by_id = {s.id: s for s in specs}
    callers = [s for s in specs if s.callers is not None and runs_a_runtime(s)]
    shared = fastest([s for s in callers if CALLERS_ONLY not in s.roles], done)
    twins = [s for s in callers if CALLERS_ONLY in s.roles
             and (language_key(s), engine(s.runtime)) in shared]  # fmt: skip
    threads = sorted([*(by_id[r.id] for r in shared.values()), *twins],
                     key=lambda s: order[s.id])  # fmt: skip
    processes = [s for s in threads if language_key(s) in SERVED_AS_PROCESSES
                 and CALLERS_ONLY not in s.roles]  # fmt: skip
    return CallersPlan(caller_counts(cores), threads, processes)
