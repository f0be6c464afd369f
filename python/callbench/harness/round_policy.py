"""How a group's rounds are timed: calibration, then rounds flagged and re-run.

A round during which the driver did not have the CPU (CPU time short of wall
time, steal, threads moved off their core, or the contention probe on either
side of it running slow) is flagged and re-run, a bounded number of times.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from callbench.driver_options import STANDALONE_LATENCY_CALLS
from callbench.harness import machine, planning
from callbench.harness.contention_probe import Probe
from callbench.harness.launch import Live, Placement
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError
from callbench.records import contention
from callbench.records.record import Round

# Probes taken before the first round, so the medians rounds are judged against start full.
PROBES_FIRST = 21


class RoundPolicy:
    def __init__(self, options: RunOptions, place: Placement, max_calls: int) -> None:
        self.options = options
        self.place = place
        self.max_calls = max_calls
        self.probe: Callable[[], int] = Probe(place.cpus, options.seed)
        self.probes_before: list[int] = []
        self.probes_after: list[int] = []
        self.probe_flags = options.contention_flags and options.calls is None

    def time_round(self, live: Live, calls: int) -> tuple[dict[str, Any], int | None]:
        """One ``round`` command: the driver's answer and the steal time during it."""
        assert live.process is not None
        steal0 = machine.steal_ns(self.place.cpus)
        live.process.send(f"round {calls}")
        live.sent_rounds += 1
        limit = planning.round_limit(live.expected_ns, calls, self.options.batch)
        answer = live.process.event("round", limit)
        steal1 = machine.steal_ns(self.place.cpus)
        steal = steal1 - steal0 if steal0 is not None and steal1 is not None else None
        if int(answer.get("calls", -1)) != calls or int(answer.get("ns", 0)) <= 0:
            raise DriverError(f"answered {answer} to `round {calls}`")
        callers = self.options.all_callers
        if callers > 1 and (answer.get("callers") != callers
                            or len(answer.get("caller_ns") or ()) != callers):  # fmt: skip
            raise DriverError(f"answered {answer} to `round {calls}` at {callers} callers")
        return answer, steal

    def calibrate(self, live: Live) -> None:
        """Calls per round: the fixed --calls, or what lasts --round-time (DriverError)."""
        if self.options.calls is not None:
            live.calls = self.max_calls
            return

        def time_round(calls: int) -> int:
            answer, _ = self.time_round(live, calls)
            live.expected_ns = float(answer["ns"])
            return int(answer["ns"])

        target = self.options.round_time * 1e9
        live.calls = planning.calibrate(time_round, self.max_calls, target)

    def seed_probes(self) -> None:
        if self.probe_flags:
            seeds = [self.probe() for _ in range(PROBES_FIRST)]
            self.probes_before += seeds
            self.probes_after += seeds

    def play(self, live: Live, index: int) -> None:
        """Round ``index`` of one driver, re-run while flagged (DriverError)."""
        for _ in range(self.options.reruns + 1):
            before = self.probe()
            answer, steal = self.time_round(live, live.calls)
            # A stretch of contention may start or end during the round:
            # the probe on either side of it may be the one that sees it.
            after = self.probe()
            self.probes_before.append(before)
            self.probes_after.append(after)
            ns, cpu = int(answer["ns"]), answer.get("cpu_ns")
            cpu_ns = int(cpu) if cpu is not None else None
            ratio = self._probe_ratio(before, after) if self.probe_flags else None
            off = self.place.pin_back(live)
            why = planning.flag(ns, cpu_ns, steal, self.options.threads, ratio, off)
            spans = answer.get("caller_ns")
            live.record.rounds.append(
                Round(index, live.calls, ns, cpu_ns, steal, why, before, after,
                      self.options.all_callers, [int(s) for s in spans] if spans else None)
            )  # fmt: skip
            live.expected_ns = float(ns)
            if why is None:
                return

    def _probe_ratio(self, before: int, after: int) -> float:
        return max(
            before / statistics.median(self.probes_before),
            after / statistics.median(self.probes_after),
        )

    def contention(self) -> str:
        return contention.describe(self.probes_before, self.probes_after)

    def latencies(self, live: Live) -> None:
        """One ``latencies`` command; the samples, when the file holds them all (DriverError)."""
        assert live.process is not None
        calls = min(live.calls, STANDALONE_LATENCY_CALLS)
        live.process.send(f"latencies {calls}")
        live.process.event("latencies", planning.round_limit(live.expected_ns, calls, 1) * 2)
        path = live.workdir / "latencies.i64"
        # Every caller's durations, caller after caller (contract 4), copy after copy.
        if path.is_file() and path.stat().st_size == 8 * calls * self.options.all_callers:
            live.latencies = np.fromfile(path, dtype="<i8")


def flagged_in(group: Sequence[Live], index: int) -> int:
    """Re-runs of flagged rounds the group had in round ``index``."""
    return sum(1 for x in group for r in x.record.rounds if r.index == index and r.flagged)
