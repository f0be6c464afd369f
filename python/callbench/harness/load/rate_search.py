"""The search for the highest rate served within a p99 bound (MLPerf LoadGen's Server scenario).

Requests arrive at random moments (a Poisson process) at an offered rate; a rate point serves
a schedule of them and passes when the p99 of its latencies, each counted from the request's
arrival, is within the bound. The search brackets the highest passing rate between a rate that
passed and one that failed, starting from the closed loop's capacity (a paced server cannot
do much better than callers that never wait), halves the bracket until it is within STEP of
its top, then confirms the rate found with a longer point on other arrivals; a confirmation
that fails makes that rate a failing one, the bracket is halved again below it and what it
finds is confirmed (CONFIRMATIONS at most). Everything here is pure: the point
is a function the caller gives, so a test can search a known capacity.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from callbench.harness.load.arrival_times import Spread

# A served row's sweep kind: its records are under sweep-serving/N/.
KIND = "serving"
# The bracket is done when its width is within this share of its top: the rate found is
# at most this far below the highest that passes. 10%, not finer: on this VM the interval of
# a row's repeated searches spans 9% of their median or more in 13 of 17 rows and N
# (20261204T0850Z-serving-*, searched at 5%), so a finer step buys no narrower interval, and
# each halving costs a point of 3 or 4 windows of 2 s (5% took about one more a search). Records
# say the step they were searched with.
STEP = 0.10
# Records before windows (one confirmed search) served points of about a second of arrivals,
# at least MIN_CALLS and at most MAX_CALLS (twice each to confirm): the report describes them
# with these; the closed loop's latency pass is at least MIN_CALLS.
MIN_CALLS = 5_000
MAX_CALLS = 100_000
# The first top of the bracket, a multiple of the closed loop's capacity, raised (doubled)
# at most RAISES times while it still passes.
FIRST_TOP = 1.2
RAISES = 3
# Below this share of the capacity no rate is worth serving: the row sustains none.
FLOOR = 0.01
CONFIRMATIONS = 5


@dataclass(frozen=True)
class Point:
    """One rate point: the rate offered, the arrivals served and their latencies' figures."""

    rate: float  # offered arrivals a second
    calls: int
    seed: int
    span_ns: int  # from the point's start to its last call's end
    p50_ns: float
    p99_ns: float
    p999_ns: float | None  # only where the calls support it (BEYOND above it)
    max_ns: int
    within: bool
    confirm: bool = False
    caller_calls: tuple[int, ...] = ()
    # Contract 7's batcher: batch_sizes[k - 1] the calls that took k arrivals (the whole
    # schedule's); empty without a batcher.
    batch_sizes: tuple[int, ...] = ()
    # Contract 6's figures beside the totals (arrival_times.ArrivalTimes.figures): wait's and
    # service's spreads, the first arrival's and the clock's lateness; and the lead the
    # driver had left when its set-up was done (negative: the set-up ran past the start).
    times: dict[str, Any] = field(default_factory=dict)
    # A point cut into windows (rate_windows.py): each window's figures, how many the point
    # needed (its figures above are of those) and whether they agreed; None in a point served
    # whole (records before windows).
    windows: tuple[dict[str, Any], ...] | None = None
    windows_used: int | None = None
    stable: bool | None = None
    # The contention probe (contention_probe.py) on the drivers' cores before and after it.
    probe_ns: int | None = None
    probe_after_ns: int | None = None

    @property
    def served_rate(self) -> float:
        """Calls a second over the point's span: below the offered rate when it fell behind."""
        return self.calls / self.span_ns * 1e9 if self.span_ns else 0.0

    def to_json(self) -> dict[str, Any]:
        shown = {**asdict(self), "caller_calls": list(self.caller_calls),
                 "batch_sizes": list(self.batch_sizes)}  # fmt: skip
        if not self.batch_sizes:  # a point without a batcher keeps the record it had
            del shown["batch_sizes"]
        if self.windows is None:  # a point served whole keeps the record it always had
            for name in ("windows", "windows_used", "stable", "probe_ns", "probe_after_ns"):
                del shown[name]
        else:
            shown["windows"] = list(self.windows)
        return shown


def point_of(
    rate: float, seed: int, latencies: np.ndarray, span_ns: int, bound_ns: float, *,
    confirm: bool = False, caller_calls: tuple[int, ...] = (), times: dict[str, Any] | None = None,
    batch_sizes: tuple[int, ...] = (),
) -> Point:  # fmt: skip
    """A rate point's figures from its latencies (ns from each arrival to its call's end, one
    per arrival), and ``times``, what the point records beside them."""
    total = Spread.of(latencies)
    return Point(rate, len(latencies), seed, span_ns, total.p50_ns, total.p99_ns,
                 total.p999_ns, total.max_ns, total.p99_ns <= bound_ns, confirm, caller_calls,
                 batch_sizes, times or {})  # fmt: skip


def arrivals(rate: float, calls: int, seed: int) -> np.ndarray:
    """``calls`` arrival offsets (int64 ns from the start) of a Poisson process at ``rate``."""
    gaps = np.random.default_rng(seed).exponential(1e9 / rate, calls)
    return np.cumsum(gaps).astype("<i8")


def bound_of_model(slowest_median_ns: float) -> float:
    """A user's model's p99 bound: 10x the slowest compared row's median call at one caller,
    rounded up to a 1-2-5 step (ns)."""
    want = 10 * slowest_median_ns
    decade = 10 ** math.floor(math.log10(want))
    return float(next(m * decade for m in (1, 2, 5, 10) if m * decade >= want))


@dataclass
class Search:
    """The points served, in order, and the rate found (None: none passed)."""

    points: list[Point]
    rate: float | None
    capped: bool = False  # the top still passed after RAISES raises: the rate is at least this


def search(
    point: Callable[[float, bool], Point], capacity: float,
    bracket: tuple[float, float | None] | None = None, confirmations: int = CONFIRMATIONS,
) -> Search:  # fmt: skip
    """The highest rate whose point passes, within STEP, confirmed; ``point(rate, confirm)``
    serves one rate point. ``bracket`` (a rate taken to pass, one taken to fail, from points
    served before: rate_repeats.py's curve) starts the halving there instead of at the top;
    with no rate taken to fail (None), the search tries its top and halves down to the rate
    taken to pass. ``confirmations`` 0 takes the rate found unconfirmed (repeated searches:
    the spread of their rates is what tells a lucky pass)."""
    points: list[Point] = []

    def serve(rate: float, confirm: bool = False) -> bool:
        points.append(point(rate, confirm))
        return points[-1].within

    low, failed = bracket or (0.0, None)
    if failed is not None:
        found = bisect_between(serve, low, failed, capacity)
        return confirmed(serve, points, found, capacity, False, confirmations)
    high = max(FIRST_TOP * capacity, low)
    raises = 0
    while serve(high):
        low = high
        if raises == RAISES:
            break
        high, raises = 2 * high, raises + 1
    capped = low == high
    if not capped:
        low = bisect_between(serve, low, high, capacity)
    return confirmed(serve, points, low, capacity, capped, confirmations)


def bisect_between(
    serve: Callable[[float], bool], low: float, high: float, capacity: float
) -> float:
    """Halve [low, high] (low taken to pass, high to fail) until it is within STEP of its top;
    its bottom."""
    while high - low > STEP * high and high > FLOOR * capacity:
        middle = (low + high) / 2
        if serve(middle):
            low = middle
        else:
            high = middle
    return low


def confirmed(
    serve: Callable[..., bool], points: list[Point], low: float, capacity: float, capped: bool,
    confirmations: int,
) -> Search:  # fmt: skip
    """The rate found, confirmed on other arrivals (``confirmations`` tries at most; none:
    the rate found as it is)."""
    if confirmations == 0:
        return Search(points, low if low >= FLOOR * capacity else None, capped)
    for _ in range(confirmations):
        if low < FLOOR * capacity:
            return Search(points, None)
        if serve(low, confirm=True):
            return Search(points, low, capped)
        # The rate failed on other arrivals: it is a failing rate now. Bracket again between
        # the highest rate below it that passed and it, and confirm what that finds.
        capped, high = False, low
        below = [p.rate for p in points if p.within and not p.confirm and p.rate < high]
        low = bisect_between(serve, max(below, default=0.0), high, capacity)
    return Search(points, None)
