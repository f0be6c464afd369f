"""A run's plan: how many calls a round takes, in which order drivers go, which rounds count."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from callbench.records import contention

T = TypeVar("T")

# A single-threaded driver that got less of the CPU than this over a round did
# not have the CPU to itself; nor did one whose core lost this much to steal.
CPU_SHARE = 0.90
STEAL_SHARE = 0.02


def calibrate(time_round: Callable[[int], int], max_calls: int, target_ns: float) -> int:
    """Calls per round so a round takes about ``target_ns`` (timeit's autorange, roughly).

    ``time_round(k)`` times one round of k calls and returns its ns. Starts at
    one call and grows, so a slow driver never runs a long round by mistake. A round
    that reaches the target is timed once more, the faster counting: one stalled round
    (N copies of a driver on fewer cores, one of them descheduled) does not fix K at a
    few calls whose rounds then measure the pipes' round trip, not the driver.
    """
    calls = 1
    while True:
        ns = max(time_round(calls), 1)
        if ns >= 0.7 * target_ns and calls < max_calls:
            ns = min(ns, max(time_round(calls), 1))
        if ns >= 0.7 * target_ns or calls >= max_calls:
            return calls
        grow = 10 if ns < target_ns / 20 else math.ceil(calls * target_ns / ns) / calls
        calls = min(max_calls, max(calls + 1, math.ceil(calls * grow)))


def round_order(items: Sequence[T], index: int, seed: int) -> list[T]:
    """Every item once, shuffled anew each round (reproducibly from ``seed``)."""
    order = list(items)
    random.Random(seed * 1_000_003 + index).shuffle(order)
    return order


def flag(
    ns: int,
    cpu_ns: int | None,
    steal_ns: int | None,
    threads: int,
    probe_ratio: float | None = None,
    threads_off: int = 0,
) -> str | None:
    """Why a round should not count, or None when it should.

    ``probe_ratio`` is the round's contention probe over the group's median
    probe, None where probes do not flag rounds; ``threads_off`` counts the
    driver's threads found allowed off its pinned CPUs after the round.
    """
    if threads_off:
        return f"{threads_off} thread(s) left the pinned CPUs (the runtime set its own affinity)"
    if threads == 1 and cpu_ns is not None and cpu_ns < CPU_SHARE * ns:
        return f"cpu time {cpu_ns / ns:.0%} of wall time"
    if steal_ns is not None and steal_ns > STEAL_SHARE * ns:
        return f"steal time {steal_ns / ns:.0%} of wall time"
    if probe_ratio is not None and probe_ratio > 1 + contention.SLOW:
        return f"core contended: probe x{probe_ratio:.2f} of its median"
    return None


def round_limit(expected_ns: float | None, calls: int, batch: int) -> float:
    """Seconds a round may take before the driver is killed as hung."""
    if expected_ns is not None:
        return 60.0 + 20 * expected_ns / 1e9
    # Nothing known yet: allow 500 µs a sample, far beyond any driver here.
    return 120.0 + calls * batch * 500e-6
