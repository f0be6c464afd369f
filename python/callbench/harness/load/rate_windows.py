"""A rate point cut into windows, and whether its windows agree (perf_analyzer's stability).

A rate point is one schedule served without a break; its arrivals are cut, in arrival order,
into windows of a fixed number of arrivals, so a backlog one window leaves carries into the
next, as in a service. Each window keeps its served rate (its arrivals over the time from
its first arrival's due time to the last of them done: below the offered rate when it fell
behind) and its tail (p99, or p90 where fewer than BEYOND arrivals would lie beyond the
p99). Windows are added until the last AGREE of them agree within TOLERANCE on both (the
largest over the smallest, perf_analyzer's --stability-percentage rule over its last 3
measurements), or until MAX_WINDOWS or POINT_MAX_S pass: then the point is "unstable" and
keeps its spread. Everything here is pure: the windows are computed from the times a paced
point leaves, so a test can cut any.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from callbench.harness.load.arrival_times import BEYOND

# A window holds at least WINDOW_S of arrivals and WINDOW_ARRIVALS of them, where the rate
# lets AGREE such windows fit within POINT_MAX_S; a slower row's windows hold what fits.
WINDOW_S = 2.0
WINDOW_ARRIVALS = 2_000
# ... and at most WINDOW_MOST_ARRIVALS: above this many in WINDOW_S (2 million a second) a
# window is shorter. Each arrival's schedule and times take about 32 bytes in a kit and more
# in the harness: a batcher's point at tens of millions a second ran a kit out of memory
# (run 20261205T0450Z-serving-mlp-batcher, stopped, not committed); every batch-1 row served
# here stayed below it.
WINDOW_MOST_ARRIVALS = 4_000_000
POINT_MAX_S = 30.0
# Stable: the last AGREE windows' largest over smallest, of the served rate and of the tail,
# within 1 + TOLERANCE (perf_analyzer: 3 measurements, 10%).
AGREE = 3
TOLERANCE = 0.10
# A point holds this many windows (within POINT_MAX_S); unstable if no AGREE in a row agree.
# The kits cannot stop a schedule part-way, so every point serves them all, and a row and N
# serves 15-30 points (the curve and the repeated searches). AGREE, not more: a 4th window
# made few points stable on this VM (of 906 points of 4 windows in the 0850Z and 1344Z
# serving runs, 38 were stable, 17 of them only with the 4th) and cost 2 s of every point, a
# quarter of a run: the budget (4 rows and N of our MLP within 15 minutes) could not hold it.
MAX_WINDOWS = 3
# bench's serving phase (coarse mode, ways_plan.py): windows of this length, so that a point
# of our MLP takes about 0.35 s and the phase fits a warm bench of 25 minutes. At our MLP's
# rates (tens to hundreds of thousands a second) a window still holds thousands of arrivals;
# a row serving fewer than WINDOW_ARRIVALS in it holds WINDOW_ARRIVALS (longer windows).
COARSE_WINDOW_S = 0.1
# ... and a point's arrivals are due within this long (not POINT_MAX_S; a point past the
# row's capacity takes longer, its backlog draining): a slow call's windows hold what fits.
# A ResNet-50's call of about 56 ms here serves about 12 requests a second, so at
# POINT_MAX_S each point took 30 s and each way about 8 min: run
# 20261206T1012Z-resnet50-onnx-served served none of its 24 ways within the phase's 6 min.
# At 8 s such a point holds about 100 arrivals (its p99 rests on the one or two largest, the
# coarse mode's price, said in the record's rule): run 20261206T1343Z-resnet50-onnx-served
# served 13 ways in 42 min 54 s (points of 6-408 arrivals, 3.5-20.6 s); our MLP's points
# hold thousands of arrivals in a fraction of a second and never reach it.
COARSE_POINT_MAX_S = 8.0


def _window_s(coarse: bool) -> float:
    return COARSE_WINDOW_S if coarse else WINDOW_S


def _point_max_s(coarse: bool) -> float:
    return COARSE_POINT_MAX_S if coarse else POINT_MAX_S


def rule(coarse: bool = False) -> dict[str, Any]:
    """The windows' rule as a record states it (``coarse``: bench's serving phase's)."""
    return {"window_s": _window_s(coarse), "window_arrivals": WINDOW_ARRIVALS,
            "window_most_arrivals": WINDOW_MOST_ARRIVALS,
            "point_max_s": _point_max_s(coarse), "agree": AGREE, "tolerance": TOLERANCE,
            "most_windows": MAX_WINDOWS}  # fmt: skip


@dataclass(frozen=True)
class WindowSize:
    """How a point at one rate is cut: arrivals a window, and at most how many windows."""

    arrivals: int
    most: int

    @classmethod
    def at(cls, rate: float, coarse: bool = False) -> WindowSize:
        """The cut at ``rate`` arrivals a second, by the full rule or (``coarse``) bench's
        serving phase's (the constants read when called)."""
        length, limit = _window_s(coarse), _point_max_s(coarse)
        per_window = min(WINDOW_MOST_ARRIVALS, max(WINDOW_ARRIVALS, math.ceil(rate * length)))
        fits = int(rate * limit / AGREE)  # arrivals a window where AGREE fit the limit
        arrivals = max(1, min(per_window, fits))
        most = max(AGREE, min(MAX_WINDOWS, int(rate * limit / arrivals)))
        return cls(arrivals, most)


def tail_quantile(arrivals: int) -> int:
    """The percentile a window of ``arrivals`` reports: 99, or 90 where fewer than BEYOND
    arrivals would lie beyond the 99th."""
    return 99 if arrivals * 0.01 >= BEYOND else 90


@dataclass(frozen=True)
class Window:
    """One window of a point: its arrivals, the time they took and their tail."""

    first: int  # index of its first arrival in the point's schedule
    arrivals: int
    span_ns: int  # from its first arrival's due time to the last of its arrivals done
    quantile: int  # the tail's percentile: 99, or 90 where the window is too small
    tail_ns: float

    @property
    def served_rate(self) -> float:
        return self.arrivals / self.span_ns * 1e9 if self.span_ns > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "served_rate": self.served_rate}


def windows_of(offsets: np.ndarray, total_ns: np.ndarray, per_window: int) -> list[Window]:
    """The whole windows of a point: ``offsets`` each arrival's due time from the point's
    start, ``total_ns`` each arrival's time from due to done (both in arrival order); a last
    window shorter than ``per_window`` is not cut (it is not one)."""
    if len(offsets) != len(total_ns):
        raise ValueError(f"{len(offsets)} due times for {len(total_ns)} latencies")
    done = offsets + total_ns
    windows = []
    for first in range(0, len(offsets) - per_window + 1, per_window):
        cut = slice(first, first + per_window)
        quantile = tail_quantile(per_window)
        span = int(done[cut].max() - offsets[first])
        windows.append(Window(first, per_window, span, quantile,
                              float(np.percentile(total_ns[cut], quantile))))  # fmt: skip
    return windows


def agree(values: Sequence[float], tolerance: float = TOLERANCE) -> bool:
    """Whether ``values`` lie within 1 + ``tolerance`` of each other (largest over smallest)."""
    low, high = min(values), max(values)
    return high <= low * (1 + tolerance) if low > 0 else high == low


def stable(windows: Sequence[Window], tolerance: float = TOLERANCE) -> bool:
    """Whether the last AGREE windows agree on the served rate and on the tail."""
    last = windows[-AGREE:]
    return (len(last) == AGREE and agree([w.served_rate for w in last], tolerance)
            and agree([w.tail_ns for w in last], tolerance))  # fmt: skip


def settled(windows: Sequence[Window], tolerance: float = TOLERANCE) -> tuple[int, bool]:
    """How many of ``windows`` (served in order) a point needs: the fewest whose last AGREE
    agree, and True; or all of them and False (unstable)."""
    for count in range(AGREE, len(windows) + 1):
        if stable(windows[:count], tolerance):
            return count, True
    return len(windows), False
