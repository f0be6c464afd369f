"""Contract 5's paced rounds: the calls arrive on the harness's schedule, not on the callers'.

``paced FILE`` gives K arrival offsets (int64 ns from the round's start, non-decreasing). The
callers serve them in arrival order: a free caller takes the next arrival, waits for its time
if it is early, calls, and the call's latency runs from the **scheduled arrival** to the
call's end, so a call that waited behind a slow one carries the wait (no coordinated
omission: a closed loop would start it late and never see the wait). Arrival j takes the
samples of call j mod S and leaves its outputs in place j of the caller that served it; the
run's outputs then hold the arrivals in arrival order.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.contract import SPIN_NS
from callbench.driverkit.model import Loop
from callbench.errors import DataError, UsageError


def read_schedule(path: Path, max_calls: int) -> np.ndarray:
    """The arrival offsets of ``paced FILE``: K int64 ns, 1 <= K <= --calls, non-decreasing,
    none negative (DataError naming the file otherwise)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(path, f"cannot read the schedule ({exc.strerror or exc})") from None
    if not data or len(data) % 8:
        raise DataError(path, f"a schedule is int64 arrival offsets; {len(data)} bytes is not")
    offsets = np.frombuffer(data, dtype="<i8")
    if len(offsets) > max_calls:
        raise UsageError(f"paced: {len(offsets)} arrivals in {path}, more than --calls {max_calls}")
    if offsets[0] < 0 or (np.diff(offsets) < 0).any():
        raise DataError(path, "arrival offsets must be non-negative and non-decreasing")
    return offsets


def wait_until(due_ns: int) -> None:
    """Back on the monotonic clock at ``due_ns`` or just after: a sleep, then a yielding spin."""
    left = due_ns - time.monotonic_ns()
    if left > SPIN_NS:
        time.sleep((left - SPIN_NS) / 1e9)
    while time.monotonic_ns() < due_ns:
        os.sched_yield()


@dataclass
class Pacing:
    """One paced round's arrivals and what each caller made of them."""

    offsets: np.ndarray
    start_ns: int = 0
    ends: list[int] = field(default_factory=list)  # each caller's last call's end
    served: list[int] = field(default_factory=list)  # arrivals each caller served
    # Python lists while serving (a list's item costs less to set than an array's, and this
    # is inside every call's time); arrays once the round is done.
    _latencies: list[int] = field(default_factory=list)
    _served_by: list[int] = field(default_factory=list)
    _due: list[int] = field(default_factory=list)
    _next: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, callers: int) -> None:
        """The round's start: now, on the monotonic clock."""
        count = len(self.offsets)
        self.ends, self.served = [0] * callers, [0] * callers
        self._latencies, self._served_by = [0] * count, [0] * count
        self.start_ns = time.monotonic_ns()
        self._due = (self.offsets + self.start_ns).tolist()

    def take(self) -> int:
        """The next arrival's index (K once every one is taken)."""
        with self._lock:
            j = self._next
            self._next += 1
        return j

    def serve(self, loop: Loop, caller: int) -> None:
        """Caller ``caller`` serves arrivals until none is left."""
        due, latencies, served_by = self._due, self._latencies, self._served_by
        count, clock, end, served = len(due), time.monotonic_ns, 0, 0
        while (j := self.take()) < count:
            if clock() < due[j]:
                wait_until(due[j])
            loop(j, j + 1)
            end = clock()
            latencies[j] = end - due[j]
            served_by[j] = caller
            served += 1
        self.ends[caller], self.served[caller] = end, served

    @property
    def latencies(self) -> np.ndarray:
        """Each arrival's latency (ns, from its scheduled arrival), in arrival order."""
        return np.array(self._latencies, dtype="<i8")

    @property
    def served_by(self) -> np.ndarray:
        """The caller that served each arrival."""
        return np.array(self._served_by, dtype=np.int64)

    def answer(self) -> dict[str, Any]:
        """The ``paced`` answer: the span from the round's start to the last call's end, and
        how many arrivals each caller served."""
        end = max(self.ends)
        return {"event": "paced", "calls": len(self.offsets), "ns": end - self.start_ns,
                "start_ns": self.start_ns, "end_ns": end, "callers": len(self.served),
                "caller_calls": self.served}  # fmt: skip
