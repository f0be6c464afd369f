"""A paced point's three times of each arrival (contract 6), and their figures.

The driver keeps, for arrival j, when its caller took it, when its call started and when it
ended, each in ns from its scheduled arrival (due). Wait is start - due (queueing behind busy
callers, or a late wake-up), service end - start (the call itself), total end - due (what
the request saw, and what the p99 bound is held to). An arrival whose caller took it before
its due time found the caller waiting for it: its wait is the clock's lateness (how late the
sleep and spin woke it), apart from queueing. The first arrival's wait says whether the set-up
stayed off the clock.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import DataError

# A percentile is given only where at least this many arrivals lie beyond it.
BEYOND = 10


@dataclass(frozen=True)
class Spread:
    """One time's p50, p90, p99, p99.9 (where BEYOND arrivals lie past it) and max, ns."""

    p50_ns: float
    p90_ns: float
    p99_ns: float
    p999_ns: float | None
    max_ns: int

    @classmethod
    def of(cls, ns: np.ndarray) -> Spread:
        p50, p90, p99 = np.percentile(ns, [50, 90, 99])
        p999 = float(np.percentile(ns, 99.9)) if len(ns) * 0.001 >= BEYOND else None
        return cls(float(p50), float(p90), float(p99), p999, int(ns.max()))


@dataclass(frozen=True)
class ArrivalTimes:
    """Each arrival's times from its due time, in arrival order (ns)."""

    taken: np.ndarray
    started: np.ndarray
    ended: np.ndarray

    @classmethod
    def read(cls, path: Path, calls: int) -> ArrivalTimes:
        """The ``--latencies`` a paced round leaves: 3 x K int64 (taken, started, ended)."""
        data = np.fromfile(path, dtype="<i8")
        if data.shape != (3 * calls,):
            raise DataError(path, f"a paced round of {calls} arrivals leaves {3 * calls} int64 "
                                  f"times; {len(data)} is not")  # fmt: skip
        taken, started, ended = data.reshape(3, calls)
        return cls(taken, started, ended)

    def first(self, count: int) -> ArrivalTimes:
        """The first ``count`` arrivals' times (a point's windows that it needed)."""
        return ArrivalTimes(self.taken[:count], self.started[:count], self.ended[:count])

    @property
    def total(self) -> np.ndarray:
        return self.ended

    @property
    def wait(self) -> np.ndarray:
        return self.started

    @property
    def service(self) -> np.ndarray:
        service: np.ndarray = self.ended - self.started
        return service

    @property
    def clock_late(self) -> np.ndarray:
        """The waits of the arrivals whose caller was already waiting for them."""
        return self.started[self.taken < 0]

    def figures(self) -> dict[str, Any]:
        """What a point records beside its totals: wait's and service's spreads, the first
        arrival's lateness, the clock's lateness and how many arrivals it covers."""
        late = self.clock_late
        return {
            "wait": asdict(Spread.of(self.wait)),
            "service": asdict(Spread.of(self.service)),
            "first_late_ns": int(self.started[0]),
            "clock_late": asdict(Spread.of(late)) if len(late) else None,
            "clock_late_arrivals": len(late),
        }


def sets_the_p99(times: dict[str, Any]) -> str | None:
    """Which of wait or service is the larger at a point's p99 ("wait" or "service"), from
    the point's ``times`` (None where a record of contract 5 kept totals only)."""
    wait, service = times.get("wait"), times.get("service")
    if not wait or not service:
        return None
    return "wait" if wait["p99_ns"] >= service["p99_ns"] else "service"
