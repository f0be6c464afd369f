"""Warm-up, one timed round, and the latency pass: the clocks live here."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from callbench.driver_options import MIN_WARMUP_CALLS
from callbench.driverkit.model import Loop
from callbench.driverkit.paced import Pacing
from callbench.driverkit.shared_counter import SharedCounter


@dataclass(frozen=True)
class Round:
    """A timed round; ``start_ns`` is its start on the machine's monotonic clock
    (CLOCK_MONOTONIC), so the harness can span N processes' rounds (contract 4)."""

    calls: int
    ns: int
    cpu_ns: int
    start_ns: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"calls": self.calls, "ns": self.ns, "cpu_ns": self.cpu_ns,
                "start_ns": self.start_ns, "end_ns": self.start_ns + self.ns}  # fmt: skip


@dataclass(frozen=True)
class Warmup:
    """What the warm-up did: its calls and its wall time."""

    calls: int
    ns: int

    def to_json(self) -> dict[str, int]:
        return {"warmup_calls": self.calls, "warmup_ns": self.ns}


def warm_up(loop: Loop, calls: int, warmup: int, seconds: float = 0.0) -> Warmup:
    """The contract's warm-up: call j runs call j mod ``calls``, until ``warmup`` calls, or
    until at least MIN_WARMUP_CALLS and ``seconds`` have passed (0: no time limit).

    Python reads the clock between blocks of calls, not after each (a block of the driver's
    loop is how its rounds run); each block is sized to end near the budget, so a call of
    a few microseconds still warms up in a few blocks and a 0.1 s call overshoots by one call.
    """
    budget = int(seconds * 1e9)
    first = min(warmup, MIN_WARMUP_CALLS)
    clock = time.perf_counter_ns
    t0 = clock()
    done = 0
    block = 1
    while done < warmup:
        at = done % calls
        step = min(calls - at, warmup - done, block if budget else warmup)
        loop(at, at + step)
        done += step
        elapsed = clock() - t0
        if budget and done >= first:
            if elapsed >= budget:
                break
            # As many calls as fit in what is left of the budget, at most twice the last block.
            block = max(1, min(2 * step, (budget - elapsed) * done // max(elapsed, 1)))
        else:
            block = 2 * step
    return Warmup(done, clock() - t0)


def poison(outputs: Sequence[np.ndarray]) -> None:
    """Fill each output with what no call gives, so a call that stores nothing shows up:
    NaN for floats, the smallest value for integers (bool has no such value)."""
    for out in outputs:
        if np.issubdtype(out.dtype, np.floating):
            out.fill(np.nan)
        elif np.issubdtype(out.dtype, np.integer):
            out.fill(np.iinfo(out.dtype).min)


def timed_round(loop: Loop, calls: int, outputs: Sequence[np.ndarray]) -> Round:
    """Calls 0 .. calls-1 as one block: wall time and this thread's CPU time. The clock is
    CLOCK_MONOTONIC (``time.monotonic_ns``; on Linux ``perf_counter_ns`` reads the same
    clock), so the round's start means the same in every process of the machine."""
    poison(outputs)
    cpu0 = time.thread_time_ns()
    t0 = time.monotonic_ns()
    loop(0, calls)
    ns = time.monotonic_ns() - t0
    return Round(calls, ns, time.thread_time_ns() - cpu0, t0)


def latencies(loop: Loop, calls: int) -> np.ndarray:
    """Each of calls 0 .. calls-1 timed alone, in ns."""
    out = np.empty(calls, dtype="<i8")
    clock = time.perf_counter_ns
    for i in range(calls):
        t0 = clock()
        loop(i, i + 1)
        out[i] = clock() - t0
    return out


class Runner(Protocol):
    """What the dialogue asks of the calls: one caller's (``OneCaller``) or N callers'
    (``callers.Callers``)."""

    def timed_round(self, calls: int) -> Round: ...

    def latencies(self, calls: int) -> np.ndarray: ...

    def paced(
        self, offsets: np.ndarray, start_ns: int | None, counter: SharedCounter | None = None
    ) -> Pacing: ...

    def last_outputs(self, calls: int) -> list[np.ndarray]: ...


@dataclass(frozen=True)
class OneCaller:
    """The one caller: the driver's loop over the run's arrays, timed on this thread."""

    loop: Loop
    outputs: Sequence[np.ndarray]
    batch: int

    def timed_round(self, calls: int) -> Round:
        return timed_round(self.loop, calls, self.outputs)

    def latencies(self, calls: int) -> np.ndarray:
        return latencies(self.loop, calls)

    def paced(
        self, offsets: np.ndarray, start_ns: int | None, counter: SharedCounter | None = None
    ) -> Pacing:
        """Contract 6 at one caller: each arrival in turn (or, one of N copies, each it takes
        from ``counter``), arrival j in slot j mod M of the run's arrays (M: the calls they
        hold)."""
        poison(self.outputs)
        pacing = Pacing(offsets, slots=len(self.outputs[0]) // self.batch, counter=counter)
        pacing.begin(1, start_ns)
        pacing.serve(self.loop, 0)
        return pacing

    def last_outputs(self, calls: int) -> list[np.ndarray]:
        return [out[: calls * self.batch] for out in self.outputs]
