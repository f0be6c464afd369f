"""Warm-up, one timed round, and the latency pass: the clocks live here."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from callbench.driverkit.model import Loop


@dataclass(frozen=True)
class Round:
    calls: int
    ns: int
    cpu_ns: int

    def to_json(self) -> dict[str, int]:
        return {"calls": self.calls, "ns": self.ns, "cpu_ns": self.cpu_ns}


def warm_up(loop: Loop, calls: int, warmup: int) -> None:
    """Warm-up call j runs call j mod calls, as the contract says."""
    done = 0
    while done < warmup:
        step = min(calls, warmup - done)
        loop(0, step)
        done += step


def poison(outputs: Sequence[np.ndarray]) -> None:
    """Fill each output with what no call gives, so a call that stores nothing shows up:
    NaN for floats, the smallest value for integers (bool has no such value)."""
    for out in outputs:
        if np.issubdtype(out.dtype, np.floating):
            out.fill(np.nan)
        elif np.issubdtype(out.dtype, np.integer):
            out.fill(np.iinfo(out.dtype).min)


def timed_round(loop: Loop, calls: int, outputs: Sequence[np.ndarray]) -> Round:
    """Calls 0 .. calls-1 as one block: wall time and this thread's CPU time."""
    poison(outputs)
    cpu0 = time.thread_time_ns()
    t0 = time.perf_counter_ns()
    loop(0, calls)
    ns = time.perf_counter_ns() - t0
    return Round(calls, ns, time.thread_time_ns() - cpu0)


def latencies(loop: Loop, calls: int) -> np.ndarray:
    """Each of calls 0 .. calls-1 timed alone, in ns."""
    out = np.empty(calls, dtype="<i8")
    clock = time.perf_counter_ns
    for i in range(calls):
        t0 = clock()
        loop(i, i + 1)
        out[i] = clock() - t0
    return out
