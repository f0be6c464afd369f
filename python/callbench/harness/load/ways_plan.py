"""What bench's serving phase serves: per language, the ways of using the cores that its
closed loop leaves in contention, and the batchers its coarse pass tries.

A way of using C cores on one model (C the usable cores): one caller (the base, which asks
nothing of the program), C callers in threads sharing the model, C callers in threads a
model each (a callers-only twin), C processes of one caller each (where the language serves
that way), one caller of C intra-op threads, and one caller through the kit's dynamic
batcher. The closed loop (bench's callers sweep and its intra-op point) gives each way's
calls a second when latency does not matter: the most it can serve. Per language the best
row of each way at C is taken, and those ways within CONTENTION of the best one's closed
loop are served (a bound only lowers a way's rate below its closed loop, so a way far below
the best one is unlikely to serve more within it: the closed-loop figures stand beside the
served ones in the report, so that a reader can see what was left out). The closed loop of
one caller batching is no guide to a batcher within a bound (a call of 10,000 waits for
10,000 arrivals), so the batcher is chosen by a coarse pass instead: the language's best
row at one caller through each of BATCHES at a delay of a tenth of the bound (gathered
where its runtime takes a changing batch, else padded), then the B whose curve passed most
at the other DELAY_SHARES, each served as a curve only; the one whose curve passed most is
served like the other ways.

Each point's cost is estimated from its closed loop (row_s, curve_s: a slow call's points
are long, its windows needing enough arrivals): in the order of ``plan`` (each language's
one caller, its best way at C, its batcher pass and chosen batcher, then its other
contenders), those past the phase's budget are skipped, each said once, so a user's model
serves as far as its call's cost allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from callbench.harness import batch_reach
from callbench.harness.load import (
    dealing,
    rate_repeats,
    rate_windows,
    serving,
    serving_plan,
)
from callbench.harness.load.dynamic_batcher import Batcher
from callbench.harness.load.serving_plan import ServingPoint
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY, GATHERED

# A way at C is served where its closed loop is within this factor of the best way's.
CONTENTION = 2.0
# The coarse pass's batchers: first up to B arrivals a call for each of BATCHES, each at a
# delay of DELAY_SHARES[0] of the bound (100 µs at our MLP's 1 ms); then the B whose curve
# passed most at each other share (300 µs: serve-rate's runs on our MLP searched D 100 and
# 300 µs, and neither served more in every language).
BATCHES = (4, 16, 64)
DELAY_SHARES = (0.1, 0.3)
# A coarse row and N: loaded (its record's load time, else LOAD_S) with its closed loop
# (about CLOSED_S), its curve, then its searches of about SEARCH_POINTS points each; a
# point's arrivals at about TYPICAL_SHARE of
# the closed loop, cut by the windows' coarse rule (windows of COARSE_WINDOW_S, longer for a
# slow call, whose windows need WINDOW_ARRIVALS: a ResNet-50's point takes COARSE_POINT_MAX_S).
# Our MLP: about 13 s a row and N, 6 s a curve alone.
LOAD_S = 3.0
CLOSED_S = 1.0
SEARCH_POINTS = 3
TYPICAL_SHARE = 0.7
# Each point's own cost beyond its arrivals: its lead, writing its schedule, reading and
# cutting its times, the contention probe either side. Run 20261206T072748Z-vm-961738's phase
# took 420 s for 599 points (473 searched, 126 of the pass's curves) whose schedules spanned
# about 224 s: about 0.3 s a point beyond its span, driver starts included.
POINT_OVERHEAD_S = 0.3
BUDGET_MIN = 6.0


def point_s(closed_per_s: float) -> float:
    """About how long a coarse point of a way of ``closed_per_s`` takes (s)."""
    rate = max(TYPICAL_SHARE * closed_per_s, 1e-3)
    size = rate_windows.WindowSize.at(rate, coarse=True)
    return size.arrivals * size.most / rate + POINT_OVERHEAD_S


def curve_s(closed_per_s: float, load_s: float = LOAD_S) -> float:
    """About how long a way's load (``load_s``), closed loop and curve alone take (the
    batcher pass's)."""
    return load_s + CLOSED_S + len(rate_repeats.CURVE) * point_s(closed_per_s)


def row_s(closed_per_s: float, load_s: float = LOAD_S) -> float:
    """About how long a coarse row and N takes: its curve, then its searches."""
    searches = rate_repeats.COARSE_REPEATS * SEARCH_POINTS * point_s(closed_per_s)
    return curve_s(closed_per_s, load_s) + searches


def load_s(record: Record) -> float:
    """How long the row took to load in ``record``'s run (LOAD_S where it says none)."""
    return record.load_ns / 1e9 if record.load_ns else LOAD_S


@dataclass(frozen=True)
class Contender:
    """One way at C: its point and its closed loop's calls a second (the sweep's record)."""

    point: ServingPoint
    closed_per_s: float
    load_s: float = LOAD_S


@dataclass
class LanguageWays:
    """One language's points: its one caller, its ways at C in contention (best first), the
    batchers its coarse pass tries, and the ways at C left out with why."""

    language: str
    one: ServingPoint
    one_per_s: float  # its closed loop at one caller
    one_load_s: float = LOAD_S
    at_cores: list[Contender] = field(default_factory=list)
    batchers: list[ServingPoint] = field(default_factory=list)
    left_out: list[tuple[ServingPoint, str]] = field(default_factory=list)


@dataclass(frozen=True)
class WaysPlan:
    """The phase's points in the order they are served, the pass's curves, the points not
    served with why (each recorded as skipped), and what else was not served (said once)."""

    languages: list[LanguageWays]
    rows: list[ServingPoint]  # served, searched
    passes: dict[str, list[ServingPoint]]  # language: the batchers its pass serves as curves
    not_served: list[tuple[ServingPoint, str]]
    said: list[str]
    estimate_s: float  # about how long the rows and passes take


def way_name(point: ServingPoint, cores: int) -> str:
    """How a way spends the cores, as the report says it."""
    if point.batcher is not None:
        return "1 caller through a batcher"
    if point.threads > 1:
        return f"1 caller, {point.threads} intra-op threads"
    if point.processes > 1:
        return f"{point.processes} processes"
    if point.callers > 1:
        holds = "a model each" if _per_caller(point.spec) else "the model shared"
        return f"{cores} callers in threads, {holds}"
    return "1 caller"


def _per_caller(spec: DriverSpec) -> bool:
    return CALLERS_ONLY in spec.roles


def contenders(
    specs: Sequence[DriverSpec], swept: Sequence[Record], language: str, cores: int
) -> list[Contender]:
    """``language``'s ways at ``cores`` from the closed loop's records (the callers sweep's
    threads and processes at N = cores, the intra-op point): each way's best row, most calls
    a second first."""
    by_id = {s.id: s for s in specs}
    best: dict[str, Contender] = {}
    for r in swept:
        spec = by_id.get(r.id)
        if not (r.ok and r.sweep is not None and spec is not None):
            continue
        if language_key(spec) != language:
            continue
        kind, value = r.sweep["kind"], r.sweep["value"]
        if kind == "callers" and value == cores:
            point = ServingPoint(spec, cores)
        elif kind == "processes" and value == cores:
            point = ServingPoint(spec, 1, cores)
        elif kind == "intra-op" and value == cores:
            point = ServingPoint(spec, 1, threads=cores)
        else:
            continue
        deal = dealing.deal_for(language, None) if point.processes > 1 else None
        if serving.why_not(spec, point.callers, deal):
            continue
        found = Contender(point, 1e9 / r.median_ns, load_s(r))
        name = way_name(point, cores)
        if name not in best or found.closed_per_s > best[name].closed_per_s:
            best[name] = found
    return sorted(best.values(), key=lambda c: c.closed_per_s, reverse=True)


def batchers(
    spec: DriverSpec, bound_ns: float, models: Path
) -> tuple[list[ServingPoint], list[str]]:
    """The coarse pass's batchers for ``spec`` (the language's best row at one caller), and
    those its artifact cannot take, with why."""
    delay_us = delay_of(DELAY_SHARES[0], bound_ns)
    gathered = GATHERED in spec.roles
    points, skipped = [], []
    for b in BATCHES:
        batcher = Batcher(b, delay_us, gathered)
        why = batch_reach.why_not_at(spec, models, b)
        if why is None:
            points.append(ServingPoint(spec, 1, batcher=batcher))
        else:
            skipped.append(f"{spec.id} {batcher.label}: {why}")
    return points, skipped


def delay_of(share: float, bound_ns: float) -> int:
    """A batcher's D in µs: ``share`` of the bound, at least 1."""
    return max(1, round(bound_ns * share / 1e3))


def other_delays(point: ServingPoint, bound_ns: float) -> list[ServingPoint]:
    """The coarse pass's second step: ``point`` (the B whose curve passed most) at each of
    DELAY_SHARES after the first."""
    assert point.batcher is not None
    return [replace(point, batcher=replace(point.batcher, max_delay_us=delay_of(share, bound_ns)))
            for share in DELAY_SHARES[1:]]  # fmt: skip


def plan(
    specs: Sequence[DriverSpec], one_caller: Sequence[Record], swept: Sequence[Record],
    cores: int, bound_ns: float, models: Path, budget_s: float = BUDGET_MIN * 60,
) -> WaysPlan:  # fmt: skip
    """The phase's points: per language whose kit serves (in the registry's order), its best
    row at one caller (of ``one_caller``, the main group), its ways at ``cores`` from
    ``swept`` within CONTENTION of the best, and its batcher pass; those past ``budget_s``
    skipped, each said once."""
    languages: list[LanguageWays] = []
    said: list[str] = []
    timed = {r.id: r for r in one_caller if r.ok}
    for spec in best_rows(specs, one_caller):
        one = timed[spec.id]
        found = LanguageWays(language_key(spec), ServingPoint(spec, 1), 1e9 / one.median_ns,
                             load_s(one))  # fmt: skip
        ways = contenders(specs, swept, found.language, cores) if cores > 1 else []
        top = ways[0].closed_per_s if ways else 0.0
        for way in ways:
            if way.closed_per_s * CONTENTION >= top:
                found.at_cores.append(way)
            else:
                found.left_out.append((way.point, (
                    f"out of contention: its closed loop {way.closed_per_s:,.0f} calls/s is "
                    f"over {CONTENTION:g}x below the best way's at {cores} "
                    f"({top:,.0f}); callbench serve-rate serves it")))  # fmt: skip
        found.batchers, cannot = batchers(spec, bound_ns, models)
        said += cannot
        languages.append(found)
    # In order of what the answer needs most: every language's base, then its best way at C,
    # then its batcher, then the rest of its contenders.
    # Each item with its closed loop and load (a batcher pass's: its row's at one caller, a
    # floor of its closed loop).
    ordered: list[tuple[str, ServingPoint | list[ServingPoint], float, float]] = []
    ordered += [(w.language, w.one, w.one_per_s, w.one_load_s) for w in languages]
    ordered += [(w.language, w.at_cores[0].point, w.at_cores[0].closed_per_s,
                 w.at_cores[0].load_s) for w in languages if w.at_cores]  # fmt: skip
    ordered += [(w.language, w.batchers, w.one_per_s, w.one_load_s)
                for w in languages if w.batchers]  # fmt: skip
    ordered += [(w.language, c.point, c.closed_per_s, c.load_s)
                for w in languages for c in w.at_cores[1:]]  # fmt: skip
    rows: list[ServingPoint] = []
    passes: dict[str, list[ServingPoint]] = {}
    not_served = [left for w in languages for left in w.left_out]
    spent = 0.0
    for language, item, per_s, load in ordered:
        curves = len(item) + len(DELAY_SHARES) - 1 if isinstance(item, list) else 0
        cost = row_s(per_s, load) + curve_s(per_s, load) * curves
        if spent + cost > budget_s:
            past = (f"past the serving phase's budget of {budget_s / 60:g} min (it would take "
                    f"about {cost:,.0f} s, {point_s(per_s):.2g} s a rate point, with "
                    f"{spent:,.0f} s planned before it)")  # fmt: skip
            if isinstance(item, list):
                said.append(f"{language}'s batcher pass ({curves} curves, then the batcher "
                            f"chosen): {past}")  # fmt: skip
            else:
                not_served.append((item, past))
            continue
        spent += cost
        if isinstance(item, list):
            passes[language] = item
        else:
            rows.append(item)
    return WaysPlan(languages, rows, passes, not_served, said, spent)


def best_rows(specs: Sequence[DriverSpec], one_caller: Sequence[Record]) -> list[DriverSpec]:
    """Per language whose kit serves, its fastest verified row at one caller (of
    ``one_caller``, the main group) among those the callers sweep takes."""
    paced = list(serving.PACED_LANGUAGES)
    return serving_plan.best_rows(serving_plan.candidates(specs, paced), one_caller)
