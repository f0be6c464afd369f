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

A user's model (``bench --onnx``, ``--torch``): the same rows at 1, the cores and twice them
only, as far as the call allows under the batch sweep's budget (``sweep_plan``): N callers on
C cores make each call up to N / C times one caller's, from the slowest row's batch-1 median,
and a point whose call would pass CALL_BUDGET_S is skipped, said once. A point whose rounds
would take a row past POINT_BUDGET_S runs fewer (at least MIN_ROUNDS), stated: a ResNet-50's
calls of 0.1 s x 14 interleaved rows x 11 rounds would otherwise be half a minute a point.
Its rounds all count, as its batch and thread sweeps' do (no contention re-runs): a
ResNet-50 on 2 cores trips the probe in most rounds, which left one of 5 counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.harness.load.sweep_plan import CALL_BUDGET_S, rounds_within
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY, FLOOR, GPU
from callbench.runtimes import engine

# A user's model's point: its rows' rounds take about this long each, or MIN_ROUNDS rounds
# (a point's rows run interleaved: 14 of them make it 14 s).
POINT_BUDGET_S = 1.0

# The languages whose services often run N copies of the program, one model each.
SERVED_AS_PROCESSES = ("python", "node")


@dataclass(frozen=True)
class CallersPlan:
    counts: list[int]
    threads: list[DriverSpec]  # each at every count (a callers-only twin above one)
    processes: list[DriverSpec]  # each at every count above one


@dataclass(frozen=True)
class Affordable:
    """A user's model's points: the counts that fit, each one's rounds, the skipped said."""

    rounds: dict[int, int]  # count: rounds of that point, in count order
    skipped: list[str]


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


def counts_of_a_model(cores: int) -> list[int]:
    """A user's model's counts: 1, the cores and twice them (its calls may be long)."""
    return sorted({1, cores, 2 * cores})


def affordable(rows: Sequence[Record], cores: int, asked: int) -> Affordable:
    """The points of a user's model that ``rows`` (the sweep's rows' batch-1 records) can
    afford: each count whose estimated call stays within the batch sweep's budget, with
    half of ``asked`` rounds, fewer where a row's rounds would pass POINT_BUDGET_S."""
    call_s = max(r.median_ns for r in rows) / 1e9 if rows else 0.0
    kept: dict[int, int] = {}
    skipped = []
    for n in counts_of_a_model(cores):
        at_n = call_s * max(1.0, n / cores)  # N callers take turns on C cores
        if at_n > CALL_BUDGET_S:
            on = f"{cores} core{'s' if cores > 1 else ''}"
            skipped.append(f"{n} callers: a call would take up to {at_n:.3g} s ({n} callers on "
                           f"{on}, {call_s:.3g} s at one), past the {CALL_BUDGET_S:g} s "
                           "budget")  # fmt: skip
            continue
        kept[n] = point_rounds(at_n, asked)
    return Affordable(kept, skipped)


def point_rounds(call_s: float, asked: int) -> int:
    """A user's model's point of calls of about ``call_s``: half of ``asked`` rounds, fewer
    (at least MIN_ROUNDS) where they would pass POINT_BUDGET_S."""
    return rounds_within(call_s, rounds(asked), POINT_BUDGET_S)
