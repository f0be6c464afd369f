"""The rate a row sustains, with an interval: a curve of fixed shares of its capacity, then
the search repeated, each repeat from a bracket of its own and to a pass of its own.

One search is one sample: on a shared machine its pass/fail is not monotone in rate (a
handful of stalls decides a p99), so a rate without an interval cannot say that one row or
N serves more than another. The curve (perf_analyzer's --request-rate-range) serves each
share of the closed loop's capacity in CURVE once: it is the report's p99-against-rate chart,
and its highest passing share below its lowest failing one brackets the rate (all passing:
the search tries its own top above them). Each of REPEATS searches then takes that bracket as
a hint, not a verdict, at both ends. Its failing end: served again on its own arrivals,
raised by a drawn share of up to STEP (so the repeats halve no common grid), kept as the
failing end only if it fails again, else the passing end, and the curve's next failing rate
above the failing one (none: its own top). Then it halves its bracket (no confirmation: the
repeats' spread is what tells a lucky pass). Its passing end: a repeat whose halving passed
no point of its own serves the curve's passing rate again, lowered by another drawn share of
up to STEP, and takes it if it passes, else the curve's next passing rate below, lowered
alike (none left: it sustained none). So every repeat's rate is one it served and passed,
and one lucky or unlucky curve point moves one repeat at most, not all of them. The rate
sustained is the (lower) median of the repeats with the median's distribution-free interval
(records/stats.median_interval: order statistics; with 5 repeats it is their smallest to
largest). A repeat that sustained no rate counts as 0.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from callbench.harness.load.rate_search import STEP, Point, Search, search
from callbench.records import stats

# Shares of the closed loop's capacity the curve serves, lowest first.
CURVE = (0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95)
REPEATS = 5
# bench's coarse serving (its serving phase): the fewest searches whose rates give an interval
# from repeats. With 3, the median's order-statistics interval is their smallest to largest,
# of 75% coverage (1 - 2 / 2^3), not 95%: wider, and said so wherever it is shown.
COARSE_REPEATS = 3
METHOD = ("the lower median of the repeats' rates, its 95% interval by order statistics (a "
          "quantile test; with 5 repeats, their smallest to largest); each repeat re-serves "
          "the curve's failing end, raised by a drawn share of up to the step, on its own "
          "arrivals before it halves its own bracket, and its rate is one it served and "
          "passed (the curve's passing end re-served, lowered by a drawn share of up to the "
          "step, where its halving passed none)")  # fmt: skip
COARSE_METHOD = (f"the lower median of the repeats' rates, its interval their smallest to "
                 f"largest (with {COARSE_REPEATS} repeats, bench's coarse mode: "
                 f"{1 - 2 * 0.5**COARSE_REPEATS:.0%} coverage, not 95%); each repeat searches "
                 "as serve-rate's do")  # fmt: skip


def method(repeats: int) -> str:
    """How a record's interval was found, as it says it: METHOD, or with bench's
    COARSE_REPEATS, COARSE_METHOD (the interval's true coverage)."""
    return COARSE_METHOD if repeats == COARSE_REPEATS else METHOD


def curve(point: Callable[[float, bool], Point], capacity: float) -> list[Point]:
    """Each share of ``capacity`` in CURVE served once, lowest first."""
    return [point(share * capacity, False) for share in CURVE]


def bracket_of(points: Sequence[Point]) -> tuple[float, float | None]:
    """(a rate that passed, the lowest rate that failed above it) from ``points``; where every
    point passed, (the highest, None): the search then tries its own top above the curve and
    halves down to it."""
    failed = [p.rate for p in points if not p.within]
    high = min(failed) if failed else None
    low = max((p.rate for p in points if p.within and (high is None or p.rate < high)),
              default=0.0)  # fmt: skip
    return low, high


def own_bracket(
    point: Callable[[float, bool], Point], shape: Sequence[Point], draw: float
) -> tuple[list[Point], tuple[float, float | None]]:
    """One repeat's bracket from the curve ``shape``: its failing end served again at a rate
    raised by ``draw`` (in [0, 1)) of STEP; failing, it stays the failing end; passing, it is
    the passing end, and the curve's next failing rate above it the failing one (none: the
    search's own top). The points it served, and the bracket."""
    low, high = bracket_of(shape)
    if high is None:
        return [], (low, None)
    rate = high * (1 + STEP * draw)
    tried = point(rate, False)
    if not tried.within:
        return [tried], (low, rate)
    above = [p.rate for p in shape if not p.within and p.rate > rate]
    return [tried], (rate, min(above) if above else None)


@dataclass(frozen=True)
class RateFound:
    """The repeats' rates (0 where one sustained none), their median and its interval."""

    rates: tuple[float, ...]
    capped: bool  # a repeat's top still passed: the rate is at least its figure

    @property
    def median(self) -> float:
        """The lower median: with an even count, the lower of the middle two, so that it is
        a rate a repeat served (its point stands for it)."""
        return float(statistics.median_low(self.rates))

    @property
    def interval(self) -> stats.Interval:
        return stats.median_interval(self.rates)


def own_pass(
    point: Callable[[float, bool], Point], shape: Sequence[Point], rate: float, draw: float
) -> tuple[list[Point], float | None]:
    """A repeat's rate where its halving passed no point of its own (``rate`` is the curve's):
    that rate served again, lowered by ``draw`` (in [0, 1)) of STEP; failing, the curve's next
    passing rate below, lowered alike, and so on. The points it served, and the rate it passed
    (None: none)."""
    served = []
    for passed in sorted((p.rate for p in shape if p.within and p.rate <= rate), reverse=True):
        lowered = passed * (1 - STEP * draw)
        served.append(point(lowered, False))
        if served[-1].within:
            return served, lowered
    return served, None


@dataclass(frozen=True)
class Draw:
    """One repeat's drawn shares of STEP, each in [0, 1): by how much its failing end is
    raised (own_bracket) and its passing end lowered (own_pass)."""

    raised: float
    lowered: float


def draws(seed: int, repeats: int) -> list[Draw]:
    """The draws of ``repeats`` searches, from ``seed``."""
    drawn = np.random.default_rng(seed).random((repeats, 2))
    return [Draw(float(up), float(down)) for up, down in drawn]


def one_search(
    point: Callable[[float, bool], Point], shape: Sequence[Point], capacity: float,
    draw: Draw, confirmations: int = 0,
) -> Search:  # fmt: skip
    """One repeated search from its own bracket (own_bracket from the curve ``shape``) to a
    pass of its own (own_pass), unconfirmed by default (the repeats' spread tells a lucky
    pass): the points of its bracket first, then its halving's, then its own pass's."""
    tried, bracket = own_bracket(point, shape, draw.raised)
    found = search(point, capacity, bracket, confirmations)
    points = [*tried, *found.points]
    rate = found.rate
    if rate is not None and not any(p.within and p.rate == rate for p in points):
        lowered, rate = own_pass(point, shape, rate, draw.lowered)
        points += lowered
    return Search(points, rate, found.capped and rate == found.rate)


def rate_found(searches: Sequence[Search]) -> RateFound:
    """The rate the searches found: their median with its interval (0 where one found none)."""
    rates = tuple(s.rate if s.rate is not None else 0.0 for s in searches)
    return RateFound(rates, any(s.capped for s in searches))


def repeated(
    point: Callable[[float, bool], Point], capacity: float, repeats: int = REPEATS,
    confirmations: int = 0, seed: int = 0,
) -> tuple[list[Point], list[Search], RateFound]:  # fmt: skip
    """The curve, then ``repeats`` searches back to back (one_search; ``seed`` draws their
    raises): the curve's points, each search, and the rate found with its interval. A run of
    several rows takes turns instead (serving.RowAtRate, rows_in_turn.py)."""
    shape = curve(point, capacity)
    searches = [one_search(point, shape, capacity, draw, confirmations)
                for draw in draws(seed, repeats)]  # fmt: skip
    return shape, searches, rate_found(searches)
