"""Contract 6's paced rounds: the calls arrive on the harness's schedule, not on the callers'.

``paced FILE [START]`` gives K arrival offsets (int64 ns, non-decreasing) from START, an
absolute time on the machine's monotonic clock (``time.monotonic_ns``: CLOCK_MONOTONIC, the
clock C++'s ``steady_clock`` reads too), or from PACED_LEAD_NS after the set-up is done when
START is absent. The set-up (the offsets as a list, the slots, poisoned outputs, callers
released) is done before START, so none of it is charged to the first arrivals. The callers
serve the arrivals in arrival order: a free caller takes the next one, waits for its time if
it is early, calls, and keeps three times of it, each from its scheduled arrival (due): when
it took it (negative: it was waiting), when its call started and when it ended. Wait is
start - due, service end - start, total end - due: a call that queued behind a slow one
carries the wait in its wait, not in its service (no coordinated omission).

Arrival j is served in slot j mod M (M: the calls the run's arrays hold, --calls) of the
caller that served it, with that slot's samples: sample j mod S when M is a multiple of S,
as the harness starts a serving driver with --calls = S. A schedule may be longer than
--calls; the outputs then hold each slot's last arrival.

``paced FILE START COUNTER``: one of N copies serving the schedule, each taking the next
arrival from COUNTER, the count they share (shared_counter.py); the arrivals another copy
took keep NOT_SERVED_NS in their three times, and their slots the poison.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.contract import NOT_SERVED_NS, PACED_LEAD_NS, SPIN_NS
from callbench.driverkit.model import Loop
from callbench.driverkit.shared_counter import SharedCounter
from callbench.errors import DataError


def read_schedule(path: Path) -> np.ndarray:
    """The arrival offsets of ``paced FILE``: K >= 1 int64 ns, non-decreasing, none negative
    (DataError naming the file otherwise)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(path, f"cannot read the schedule ({exc.strerror or exc})") from None
    if not data or len(data) % 8:
        raise DataError(path, f"a schedule is int64 arrival offsets; {len(data)} bytes is not")
    offsets = np.frombuffer(data, dtype="<i8")
    if offsets[0] < 0 or (np.diff(offsets) < 0).any():
        raise DataError(path, "arrival offsets must be non-negative and non-decreasing")
    return offsets


def wait_until(due_ns: int) -> int:
    """Back on the monotonic clock at ``due_ns`` or just after (a sleep, then a yielding
    spin); the clock's reading then."""
    left = due_ns - time.monotonic_ns()
    if left > SPIN_NS:
        time.sleep((left - SPIN_NS) / 1e9)
    while (now := time.monotonic_ns()) < due_ns:
        os.sched_yield()
    return now


@dataclass
class Pacing:
    """One paced round's arrivals and what each caller made of them."""

    offsets: np.ndarray
    slots: int  # M: arrival j is served in slot j mod M
    start_ns: int = 0  # the round's start: arrival j is due at start_ns + offsets[j]
    ready_ns: int = 0  # when the set-up was done
    counter: SharedCounter | None = None  # the count N copies share, if one of them
    ends: list[int] = field(default_factory=list)  # each caller's last call's end
    served: list[int] = field(default_factory=list)  # arrivals each caller served
    # Python lists while serving (a list's item costs less to set than an array's, and this
    # is inside every call's time); arrays once the round is done.
    _offsets: list[int] = field(default_factory=list)
    _taken: list[int] = field(default_factory=list)
    _started: list[int] = field(default_factory=list)
    _ended: list[int] = field(default_factory=list)
    _served_by: list[int] = field(default_factory=list)
    _next: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def filled(self) -> int:
        """The slots the round fills: min(K, M)."""
        return min(len(self.offsets), self.slots)

    def begin(self, callers: int, start_ns: int | None) -> None:
        """The set-up, then the round's start: ``start_ns`` when given, else PACED_LEAD_NS
        from now."""
        count = len(self.offsets)
        self._offsets = self.offsets.tolist()
        # Under a shared counter, the arrivals other copies take are left as not served here.
        unset = 0 if self.counter is None else NOT_SERVED_NS
        self._taken, self._started, self._ended = [unset] * count, [unset] * count, [unset] * count
        self._served_by = [0] * count
        self.ready_ns = time.monotonic_ns()
        # Without START, the callers' release is set-up too: they are released within the lead.
        self.start_ns = self.ready_ns + PACED_LEAD_NS if start_ns is None else start_ns
        # A caller that serves nothing (a copy whose neighbours took every arrival) ends at START.
        self.ends, self.served = [self.start_ns] * callers, [0] * callers

    def take(self) -> int:
        """The next arrival's index (K or more once every one is taken)."""
        with self._lock:
            if self.counter is not None:
                return self.counter.take()
            j = self._next
            self._next += 1
        return j

    def serve(self, loop: Loop, caller: int) -> None:
        """Caller ``caller`` serves arrivals until none is left."""
        offsets, taken, started, ended = self._offsets, self._taken, self._started, self._ended
        start, slots, served_by = self.start_ns, self.slots, self._served_by
        count, clock, end, served = len(offsets), time.monotonic_ns, start, 0
        while (j := self.take()) < count:
            due = start + offsets[j]
            now = clock()
            begin = wait_until(due) if now < due else now
            slot = j % slots
            loop(slot, slot + 1)
            end = clock()
            taken[j], started[j], ended[j] = now - due, begin - due, end - due
            served_by[j] = caller
            served += 1
        self.ends[caller], self.served[caller] = end, served

    @property
    def timings(self) -> np.ndarray:
        """The ``--latencies`` of a paced round: 3 x K int64 ns from each arrival's due time,
        in arrival order: when its caller took it, when its call started, when it ended."""
        return np.array([self._taken, self._started, self._ended], dtype="<i8")

    @property
    def slot_callers(self) -> np.ndarray:
        """The caller that served each filled slot's last arrival."""
        count = len(self.offsets)
        last = np.arange(count - self.filled, count)
        owners = np.empty(self.filled, dtype=np.int64)
        owners[last % self.slots] = np.array(self._served_by, dtype=np.int64)[last]
        return owners

    def answer(self) -> dict[str, Any]:
        """The ``paced`` answer: the span from the round's start to the last call's end, the
        slots filled, when the set-up was done, and how many arrivals each caller served."""
        end = max(self.ends)
        return {"event": "paced", "calls": len(self.offsets), "ns": end - self.start_ns,
                "start_ns": self.start_ns, "end_ns": end, "ready_ns": self.ready_ns,
                "slots": self.filled, "callers": len(self.served),
                "caller_calls": self.served}  # fmt: skip
