"""The most arrivals a second a row's batcher serves: a burst of arrivals all due at once,
drained B a call with nothing to wait for (contract 7's closed loop, the curve's capacity).

A batcher's calls carry B samples, but its gathering costs per arrival too (each arrival
taken, its sample copied in, its times kept), so the closed loop's calls a second times B
overstates what it serves: on our MLP, C++'s at B 64 by far, and a point at shares of that
held so many arrivals that its kit ran out of memory (run 20261205T0450Z-serving-mlp-batcher,
stopped, not committed). The burst is served as any point is (``paced FILE START``, the
start a lead ahead), DRAINS times; the capacity is their median.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from callbench.harness.launch import Live
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.load.rate_points import LEAD_NS, LEAD_NS_AN_ARRIVAL, ROUND_LIMIT
from callbench.harness.processes import DriverError

DRAINS = 3
# A burst holds what the closed loop's calls times B would serve in DRAIN_S, at least
# LEAST_CALLS full calls and at most MOST_ARRIVALS arrivals.
DRAIN_S = 0.1
LEAST_CALLS = 100
MOST_ARRIVALS = 1_000_000


def burst_size(calls_per_s: float, batch: int) -> int:
    """The arrivals of one burst, for a closed loop of ``calls_per_s`` calls of ``batch``."""
    return int(min(MOST_ARRIVALS, max(LEAST_CALLS * batch, calls_per_s * batch * DRAIN_S)))


def drained_per_s(times: ArrivalTimes) -> float:
    """Arrivals a second of a burst all due at 0: its arrivals over the last one's end."""
    return len(times.ended) * 1e9 / max(1, int(times.ended.max()))


def drain(live: Live, calls_per_s: float, batch: int) -> list[float]:
    """Each of DRAINS bursts' arrivals a second through the loaded batcher."""
    arrivals = burst_size(calls_per_s, batch)
    schedule = live.workdir / "burst.i64"
    np.zeros(arrivals, dtype="<i8").tofile(schedule)
    return [_one(live, schedule, arrivals) for _ in range(DRAINS)]


def _one(live: Live, schedule: Path, arrivals: int) -> float:
    process = live.process
    assert process is not None
    start_ns = time.monotonic_ns() + LEAD_NS + LEAD_NS_AN_ARRIVAL * arrivals
    process.send(f"paced {schedule} {start_ns}")
    answer = process.event("paced", ROUND_LIMIT)
    if answer.get("calls") != arrivals:
        raise DriverError(f"paced: a burst of {arrivals} arrivals answered "
                          f"{answer.get('calls')} calls")  # fmt: skip
    return drained_per_s(ArrivalTimes.read(live.workdir / "latencies.i64", arrivals))
