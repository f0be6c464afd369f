"""How hard the host's other tenants press on the drivers' core: a fixed memory walk timed there.

Steal time and a driver's CPU time say whether the driver had its vCPU. They
cannot see a tenant of the host that shares the physical core's caches with
it: the vCPU runs, only slower. Measured on the 2-core VMs this suite grew on,
with nothing else running inside the VM: a compute-bound loop kept within 3%
of its speed while a walk over a 512 KB table varied by up to 2x over seconds,
and driver rounds slowed with it. So before and after each round the harness
times the same gather over a table the size of a core's L2 cache, on the core
the driver runs on; a round's ``probe_ns`` and ``probe_after_ns`` say how
contended the core was around it, and the run's spread of them says how noisy
the machine was.
"""

from __future__ import annotations

import os
import time

import numpy as np

# 1 MiB of float32 gathered in a fixed random order: misses L1, fits a core's L2.
TABLE_FLOATS = 1 << 18
REPEATS = 4


class Probe:
    """A fixed gather, timed on given CPUs; each call returns its ns."""

    def __init__(self, cpus: set[int] | None, seed: int = 0) -> None:
        self.cpus = cpus
        rng = np.random.default_rng(seed)
        self._table = rng.random(TABLE_FLOATS, dtype=np.float32)
        self._order = rng.permutation(TABLE_FLOATS).astype(np.intp)
        self._out = np.empty(TABLE_FLOATS, dtype=np.float32)
        self()  # touch every page once, so the first figure is not page faults

    def __call__(self) -> int:
        """The gather's ns on the drivers' core; on several (N callers), the slowest core's."""
        if not self.cpus or len(self.cpus) == 1:
            return self._timed(self.cpus)
        return max(self._timed({cpu}) for cpu in sorted(self.cpus))

    def _timed(self, cpus: set[int] | None) -> int:
        home = os.sched_getaffinity(0)
        if cpus:
            os.sched_setaffinity(0, cpus)
        try:
            # One pass untimed: what the timed ones find cached is then the same
            # whatever ran just before (a driver with a large footprint evicts more),
            # and only the core's contention moves the figure.
            np.take(self._table, self._order, out=self._out)
            start = time.perf_counter_ns()
            for _ in range(REPEATS):
                np.take(self._table, self._order, out=self._out)
            return time.perf_counter_ns() - start
        finally:
            if cpus:
                os.sched_setaffinity(0, home)
