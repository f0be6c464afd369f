"""A loaded row's rate points: each one ``paced FILE START`` (contract 6) over a Poisson
schedule of its own seed, starting a lead after it is sent (the driver reads the schedule
and sets up before it), cut into windows (rate_windows.py), with each window's steal and
the contention probe on either side; served again while its set-up runs past its start
(SETUP_TRIES). It keeps the last point's counted times for the record (serving.py). At
``--processes N`` the copies serve each point's arrivals dealt by the row's rule
(dealing.py).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from callbench.harness import console
from callbench.harness.contention_probe import Probe
from callbench.harness.copies import Copies
from callbench.harness.launch import Live, Placement
from callbench.harness.load import dealing, rate_search, rate_windows
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.load.window_steal import WindowSteal
from callbench.harness.processes import DriverError

# How long a driver may take to answer beyond its schedule (s).
ROUND_LIMIT = 120.0
# The last point's times kept beside the record: its first PACED_KEPT arrivals of the windows
# it counted (a point at a million a second holds millions, tens of MB: a run must commit).
PACED_KEPT = 200_000
# A point starts this long after the harness sends it, and LEAD_NS_AN_ARRIVAL longer for each
# arrival it schedules: the driver reads its schedule and sets up before it, off the clock
# (Python's kit builds its due times at about 30 ns an arrival); the record says how much of
# it was left (lead_left_ns).
LEAD_NS = 50_000_000
LEAD_NS_AN_ARRIVAL = 100
# A point whose set-up ran past its start (lead_left_ns < 0) would charge the set-up to its
# first arrivals: it is served again on other arrivals, the row's lead from then on longer
# by twice the overrun, up to SETUP_TRIES times in all (then it counts as it is, its
# lead_left_ns saying so). Seen: one row's first six curve points set up 0.35-1.3 s past
# their start while other rows' drivers were loaded (20261204T1319Z-serving-mlp-a), then
# no more.
SETUP_TRIES = 3


class RatePoints:
    """A loaded row's rate points: each ``paced FILE START`` over a schedule of its own seed,
    cut into windows; it keeps the last point's counted times (their first PACED_KEPT)."""

    def __init__(
        self, live: Live, place: Placement, seed: int, bound_ns: float, capacity: float,
        deal: str | None = None, coarse: bool = False,
    ) -> None:  # fmt: skip
        self.coarse = coarse  # its points cut by bench's coarse rule (rate_windows.py)
        self.live, self.seed, self.bound_ns, self.capacity = live, seed, bound_ns, capacity
        self.deal = deal  # how the copies share each point's arrivals (None: one process)
        self.last_copy_of: np.ndarray | None = None  # the last point's: each arrival's copy
        self.schedule = live.workdir / "arrivals.i64"
        self.probe = Probe(place.cpus, seed)
        self.place = place
        self.served = 0
        self.served_again = 0  # points served again: their set-up ran past their start
        self.extra_lead_ns = 0  # added to every lead once a set-up ran past its start
        self.last: ArrivalTimes | None = None

    def serve(self, rate: float, confirm: bool) -> rate_search.Point:
        """One rate point, served again (SETUP_TRIES in all) while its set-up runs past its
        start."""
        for _ in range(SETUP_TRIES - 1):
            found = self._serve_once(rate, confirm)
            overrun = -int(found.times["lead_left_ns"])
            if overrun <= 0:
                return found
            self.extra_lead_ns = max(self.extra_lead_ns, 2 * overrun)
            self.served_again += 1
            label = f"{self.live.spec.id} x{self.live.record.callers}"
            console.note(f"  {label}: {rate:,.0f}/s set up {overrun / 1e6:,.1f} ms past its "
                         "start: served again")  # fmt: skip
        return self._serve_once(rate, confirm)

    def _serve_once(self, rate: float, confirm: bool) -> rate_search.Point:
        live = self.live
        process = live.process
        assert process is not None
        size = rate_windows.WindowSize.at(rate, self.coarse)
        calls = size.arrivals * size.most
        self.served += 1
        point_seed = self.seed + self.served
        offsets = rate_search.arrivals(rate, calls, point_seed)
        offsets.tofile(self.schedule)
        before = self.probe()
        # The start, ahead by the lead: the driver reads the schedule and sets up before it.
        lead_ns = LEAD_NS + LEAD_NS_AN_ARRIVAL * calls + self.extra_lead_ns
        start_ns = time.monotonic_ns() + lead_ns
        edges = [start_ns + int(offsets[i]) for i in range(0, calls, size.arrivals)]
        limit = ROUND_LIMIT + offsets[-1] / 1e9
        with WindowSteal(self.place.cpus, [*edges, start_ns + int(offsets[-1])]) as steal:
            if isinstance(process, Copies):
                assert self.deal is not None
                dealt = dealing.serve_point(process, self.schedule, offsets, start_ns,
                                            self.deal, limit)  # fmt: skip
                answer, times, self.last_copy_of = dealt.answer, dealt.times, dealt.copy_of
            else:
                process.send(f"paced {self.schedule} {start_ns}")
                answer = process.event("paced", limit)
        after = self.probe()
        if answer.get("calls") != calls or answer.get("start_ns") != start_ns:
            raise DriverError(f"paced: answered {answer.get('calls')} calls from "
                              f"{answer.get('start_ns')}, for {calls} arrivals from "
                              f"{start_ns}")  # fmt: skip
        if not isinstance(process, Copies):
            times = ArrivalTimes.read(live.workdir / "latencies.i64", calls)
        windows = rate_windows.windows_of(offsets, times.total, size.arrivals)
        used, steady = rate_windows.settled(windows)
        kept = times.first(used * size.arrivals)
        # Copied out, so that a row waiting for its turn holds PACED_KEPT arrivals, not all.
        self.last = ArrivalTimes(*(np.array(a[:PACED_KEPT])
                                   for a in (kept.taken, kept.started, kept.ended)))  # fmt: skip
        figures = {**kept.figures(), "lead_ns": lead_ns,
                   "lead_left_ns": start_ns - int(answer["ready_ns"])}  # fmt: skip
        # Each window's steal beside its figures; the contention probe on either side of the
        # point (as around a closed-loop round: it cannot run inside one schedule).
        shown = tuple(w.to_json() | {"steal_ns": ns}
                      for w, ns in zip(windows, steal.per_window(), strict=True))  # fmt: skip
        found = replace(rate_search.point_of(
            rate, point_seed, kept.total, int(answer["ns"]), self.bound_ns, confirm=confirm,
            caller_calls=tuple(int(n) for n in answer.get("caller_calls") or ()), times=figures,
            batch_sizes=tuple(int(n) for n in answer.get("batch_sizes") or ()),
        ), calls=calls, windows=shown, windows_used=used, stable=steady, probe_ns=before,
           probe_after_ns=after)  # fmt: skip
        verdict = "within" if found.within else "over"
        console.note(f"  {live.spec.id} x{live.record.callers}: {rate:,.0f}/s, p99 "
                     f"{found.p99_ns / 1e3:,.1f} us: {verdict}"
                     f"{'' if steady else ' (unstable)'}")  # fmt: skip
        return found
