"""A driver serving counted rounds under callgrind: each round's counters dumped, the
instrumentation on from the first round (a JIT's: around each round alone), and, for a
JIT, the calling thread's own."""

from __future__ import annotations

from pathlib import Path

from callbench.harness.count import callgrind
from callbench.harness.count.callgrind import CallgrindError
from callbench.harness.processes import DriverError, DriverProcess
from callbench.records import count as derive


class CountedRounds:
    """Rounds of a driver started under ``callgrind.prefix(out_file, ...)`` in serve mode.

    ``threads_apart``: the driver runs with a dump per thread (a JIT); a round's counts are
    then the calling thread's, once ``caller`` is set, and the busiest thread's before."""

    def __init__(
        self, process: DriverProcess, out_file: Path, round_limit: float, threads_apart: bool
    ) -> None:
        self.process, self.out_file = process, out_file
        self.round_limit, self.threads_apart = round_limit, threads_apart
        self.rounds = 0  # counted rounds so far: each one callgrind's dump of that number
        self.served = 0  # calls of the counted rounds so far
        self.caller: int | None = None
        self.busiest: int | None = None  # the last round's busiest thread
        self.on = False  # the instrumentation

    def count(self, calls: int) -> tuple[list[str], list[int]]:
        """One round of ``calls`` counted alone: its events and counts."""
        pid = self.process.proc.pid
        if not self.on:
            callgrind.instrument(pid)
            self.on = True
        self.process.send(f"round {calls}")
        answer = self.process.event("round", self.round_limit)
        if int(answer.get("calls", -1)) != calls:
            raise DriverError(f"answered {answer} to `round {calls}`")
        self.rounds += 1
        self.served += calls
        if not self.threads_apart:
            # One monitor request a round, not two (each ~0.2 s, its core idle): the
            # instrumentation stays on between rounds, where the driver waits in a read for
            # its next command; reading it joins the round's own cost, which cancels in a
            # pair. Not a JIT's: its calling thread may run the runtime's tasks while it
            # waits, for as long as the harness takes.
            return callgrind.dump(pid, self.out_file, self.rounds, keep_on=True)
        self.on = False
        events, per_thread = callgrind.dump_threads(pid, self.out_file, self.rounds)
        if self.caller is None:
            self.busiest, counts = callgrind.busiest(events, per_thread)
            return events, counts
        if self.caller not in per_thread:
            raise CallgrindError(f"thread {self.caller}, the calling thread, ran no round")
        return events, per_thread[self.caller]

    def per_call(self, calls: int) -> float:
        """One round of ``calls`` counted: its instructions a call."""
        events, counts = self.count(calls)
        return counts[events.index(derive.INSTRUCTIONS)] / calls
