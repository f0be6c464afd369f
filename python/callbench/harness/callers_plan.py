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

Processes: the same rows of the languages that serve a model that way (gunicorn's or
uvicorn's workers for Python; Node's cluster), at each count above one (one process of one
caller is the threads' first point), without the twins (each copy holds its own model
anyway). A kit whose rounds do not yet say when they ran is recorded as skipped there.
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
    threads: list[DriverSpec]  # each at every count
    processes: list[DriverSpec]  # each at every count above one


def caller_counts(cores: int) -> list[int]:
    """1, the powers of two below ``cores``, ``cores`` and twice them."""
    counts = {1, cores, 2 * cores}
    n = 2
    while n < cores:
        counts.add(n)
        n *= 2
    return sorted(counts)


def takes_part(spec: DriverSpec) -> bool:
    return (spec.callers is not None and FLOOR not in spec.roles and GPU not in spec.roles
            and not spec.id.startswith("independent-"))  # fmt: skip


def plan(specs: Sequence[DriverSpec], done: Sequence[Record], cores: int) -> CallersPlan:
    """The sweep of ``specs`` (the chosen drivers) from ``done`` (their main group's records)."""
    by_id = {s.id: s for s in specs}
    fastest: dict[tuple[str, str], Record] = {}
    for r in done:
        spec = by_id.get(r.id)
        if spec is None or not r.ok or r.sweep is not None or not takes_part(spec):
            continue
        if CALLERS_ONLY in spec.roles:
            continue
        key = (language_key(spec), engine(spec.runtime))
        if key not in fastest or r.median_ns < fastest[key].median_ns:
            fastest[key] = r
    chosen = [by_id[r.id] for r in fastest.values()]
    keys = set(fastest)
    twins = [s for s in specs if CALLERS_ONLY in s.roles and takes_part(s)
             and (language_key(s), engine(s.runtime)) in keys]  # fmt: skip
    order = {s.id: n for n, s in enumerate(specs)}  # the registry's order
    threads = sorted([*chosen, *twins], key=lambda s: order[s.id])
    processes = [s for s in threads if CALLERS_ONLY not in s.roles
                 and language_key(s) in SERVED_AS_PROCESSES]  # fmt: skip
    return CallersPlan(caller_counts(cores), threads, processes)
