"""Steal time in each window of a rate point, read while the driver serves it.

The harness waits on the driver's answer while a point runs, so a thread reads the drivers'
CPUs' steal time (/proc/stat) at each window's first due time and at the last, on the
monotonic clock the point's start is given on: window k's steal is what the hypervisor took
between its first due time and the next window's. It only sleeps and reads a file between
those times, so it costs the drivers' cores next to nothing; it is stopped and joined
however the point ends, leaving no thread behind.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from types import TracebackType

from callbench.harness import machine


class WindowSteal:
    """Steal time read at given CLOCK_MONOTONIC times (ns); a context manager."""

    def __init__(self, cpus: set[int] | None, at_ns: Sequence[int]) -> None:
        self._cpus = cpus
        self._at = list(at_ns)
        self._read: list[int | None] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="window-steal", daemon=True)

    def __enter__(self) -> WindowSteal:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:  # fmt: skip
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        for at in self._at:
            wait_s = (at - time.monotonic_ns()) / 1e9
            if wait_s > 0 and self._stop.wait(wait_s):
                return
            self._read.append(machine.steal_ns(self._cpus))

    def per_window(self) -> list[int | None]:
        """Each window's steal (ns): between one reading and the next; None where a reading
        was missing (no /proc/stat, or the point ended before it)."""
        read = self._read + [None] * (len(self._at) - len(self._read))
        return [b - a if a is not None and b is not None else None
                for a, b in itertools.pairwise(read)]  # fmt: skip
