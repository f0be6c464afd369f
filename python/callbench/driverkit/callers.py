"""Contract 4's callers: N threads calling one loaded model at once, each over its own
inputs and outputs through its own call state (``Model.sharing.caller``).

The threads are Python's own (``threading``), the GIL as it is: a runtime that releases
it during its call can run N calls at once, one that does not cannot, and the rows show
which. They start after the model's load, make their loops one at a time in caller order
(each in its own thread and context), warm them up together, and live until the run ends,
waiting at a barrier between rounds; a round releases them together, each makes its K
calls back to back, and the round's time runs from the first caller's start to the last
caller's end. They are daemon threads: a caller that fails
breaks the barrier, the entry reports that caller's line and the process ends with its
other callers in it, wherever they were.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit import rounds
from callbench.driverkit.model import Arrays, LoadedModel, Loop, Sharing
from callbench.driverkit.paced import Pacing
from callbench.driverkit.shared_counter import SharedCounter
from callbench.errors import RunError, named_first_line

# A task one caller runs with its loop, the round's calls and its own index, in its thread.
Task = Callable[[Loop, int, int], Any]


def samples_of(caller: int, calls: int, every: Arrays, batch: int, into: Arrays) -> None:
    """Fill caller ``caller``'s inputs for a round of ``calls``: its call i takes the samples
    of call (caller * calls + i) mod S, S the calls ``every`` holds at this batch."""
    held = len(every[0]) // batch
    which = (caller * calls + np.arange(calls)) % held
    for source, target in zip(every, into, strict=True):
        per_call = source[: held * batch].reshape(held, batch, *source.shape[1:])
        np.take(
            per_call,
            which,
            axis=0,
            out=target[: calls * batch].reshape(calls, batch, *source.shape[1:]),
        )


@dataclass
class _Report:
    """What one caller's task gave, or how it failed."""

    value: Any = None
    error: BaseException | None = None


@dataclass(frozen=True)
class CallersRound(rounds.Round):
    """A round of N callers: ``ns`` from the first start to the last end, ``cpu_ns`` all the
    callers' threads' CPU time, ``caller_ns`` each caller's own span."""

    caller_ns: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "callers": len(self.caller_ns),
                "caller_ns": list(self.caller_ns)}  # fmt: skip


@dataclass
class Callers:
    """N caller threads over one loaded model, each with its own arrays and loop."""

    model: LoadedModel
    options: Options
    every: Arrays  # every sample the inputs hold
    inputs: list[Arrays] = field(default_factory=list)
    outputs: list[Arrays] = field(default_factory=list)
    _task: Task | None = None
    _calls: int = 0
    _reports: list[_Report] = field(default_factory=list)
    _served_by: np.ndarray | None = None  # after a paced round: the caller of each arrival
    _threads: list[threading.Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        n, samples = self.options.callers, self.options.calls * self.options.batch
        self.inputs = [tuple(np.empty((samples, *a.shape[1:]), a.dtype) for a in self.every)
                       for _ in range(n)]  # fmt: skip
        self.outputs = [tuple(np.empty_like(y) for y in self.model.outputs) for _ in range(n)]
        self._reports = [_Report() for _ in range(n)]
        self._release = threading.Barrier(n + 1)
        self._done = threading.Barrier(n + 1)
        self._made = 0  # callers' loops made so far: one at a time, in caller order
        self._turn = threading.Condition()

    @property
    def sharing(self) -> Sharing:
        assert self.model.model.sharing is not None
        return self.model.model.sharing

    def start(self) -> rounds.Warmup:
        """Each caller's call state made and warmed up, all callers at once (each the
        contract's warm-up over its own samples); the fewest calls any caller made."""
        calls = self.options.calls
        for c, inputs in enumerate(self.inputs):
            samples_of(c, calls, self.every, self.options.batch, inputs)
        self._threads = [
            threading.Thread(target=self._serve, args=(c,), daemon=True, name=f"caller {c}")
            for c in range(len(self.inputs))
        ]
        t0 = time.perf_counter_ns()
        for thread in self._threads:
            thread.start()
        warmed = self._run_all(
            lambda loop, k, _: rounds.warm_up(
                loop, k, self.options.warmup, self.options.warmup_time
            ),
            calls,
        )
        return rounds.Warmup(min(w.calls for w in warmed), time.perf_counter_ns() - t0)

    def _serve(self, c: int) -> None:
        """Caller ``c``'s thread: its loop made here, in its own thread and context, then one
        task a release until the run ends."""
        report = self._reports[c]
        with self.model.model.context():
            try:
                loop = self._make(c)
            except BaseException as exc:
                report.error = exc
                self._release.abort()
                self._done.abort()
                return
            while True:
                try:
                    self._release.wait()
                except threading.BrokenBarrierError:
                    return
                task = self._task
                if task is None:  # the run's end
                    return
                try:
                    report.value = task(loop, self._calls, c)
                except BaseException as exc:
                    report.error = exc
                    self._done.abort()
                    return
                try:
                    self._done.wait()
                except threading.BrokenBarrierError:
                    return

    def _make(self, c: int) -> Loop:
        """Caller c's loop, made once caller c-1's is (a runtime's load need not be safe to
        run at once, and the callers' order is then the order they were made in)."""
        with self._turn:
            self._turn.wait_for(lambda: self._made == c)
            try:
                return self.sharing.caller(self.inputs[c], self.outputs[c])
            finally:
                self._made += 1
                self._turn.notify_all()

    def _run_all(self, task: Task, calls: int) -> list[Any]:
        """Release every caller on ``task`` and wait for all; a caller's failure is raised
        here as its own line."""
        self._task, self._calls = task, calls
        for report in self._reports:
            report.value = None
        try:
            self._release.wait()
            self._done.wait()
        except threading.BrokenBarrierError:
            pass
        for c, report in enumerate(self._reports):
            if report.error is not None:
                raise RunError(f"caller {c}: {named_first_line(report.error)}") from report.error
        return [report.value for report in self._reports]

    def timed_round(self, calls: int) -> CallersRound:
        """Every caller's calls 0 .. calls-1 over its own samples, released together."""
        for c, (inputs, outputs) in enumerate(zip(self.inputs, self.outputs, strict=True)):
            samples_of(c, calls, self.every, self.options.batch, inputs)
            rounds.poison(outputs)
        self._served_by = None
        spans = self._run_all(_timed_calls, calls)
        first, last = min(s[0] for s in spans), max(s[1] for s in spans)
        return CallersRound(calls, last - first, sum(s[2] for s in spans), start_ns=first,
                            caller_ns=tuple(s[1] - s[0] for s in spans))  # fmt: skip

    def latencies(self, calls: int) -> np.ndarray:
        """Each caller's calls 0 .. calls-1 timed one by one, all callers at once: N x calls
        durations, caller after caller."""
        return np.concatenate(self._run_all(lambda loop, k, _: rounds.latencies(loop, k), calls))

    def paced(
        self, offsets: np.ndarray, start_ns: int | None, counter: SharedCounter | None = None
    ) -> Pacing:
        """Contract 6: the arrivals of ``offsets`` served by every caller, each taking the next
        one (from ``counter`` when N copies share it), arrival j in slot j mod M of the caller
        that takes it; every caller's inputs hold every slot's samples (slot i: call i mod S)."""
        pacing = Pacing(offsets, slots=self.options.calls, counter=counter)
        for inputs, outputs in zip(self.inputs, self.outputs, strict=True):
            samples_of(0, pacing.filled, self.every, self.options.batch, inputs)
            rounds.poison(outputs)
        pacing.begin(len(self.inputs), start_ns)
        self._run_all(lambda loop, _, c: pacing.serve(loop, c), pacing.filled)
        self._served_by = pacing.slot_callers
        return pacing

    def last_outputs(self, calls: int) -> list[np.ndarray]:
        """Each output's samples of every caller's last round, caller after caller; after a
        paced round, each arrival's from the caller that served it, in arrival order."""
        samples = calls * self.options.batch
        if self._served_by is not None:
            which, at = self._served_by, np.arange(calls)
            return [np.stack([outputs[j][:samples].reshape(calls, -1) for outputs in self.outputs])
                    [which, at].reshape(samples, *self.model.outputs[j].shape[1:])
                    for j in range(len(self.model.outputs))]  # fmt: skip
        return [np.concatenate([outputs[j][:samples] for outputs in self.outputs])
                for j in range(len(self.model.outputs))]  # fmt: skip

    def stop(self) -> None:
        """After a run without a failure, the callers' threads end (each waits at the release
        barrier). After one, they are left to end with the process, wherever they are."""
        if self._release.broken:
            return
        self._task = None
        self._release.wait()
        for thread in self._threads:
            thread.join()


def _timed_calls(loop: Loop, calls: int, _caller: int) -> tuple[int, int, int]:
    """One caller's round: its start and end on the monotonic clock, its thread's CPU time."""
    cpu0 = time.thread_time_ns()
    t0 = time.monotonic_ns()
    loop(0, calls)
    t1 = time.monotonic_ns()
    return t0, t1, time.thread_time_ns() - cpu0


def note(sharing: Sharing, callers: int) -> dict[str, Any]:
    """What a result's notes say of its callers."""
    return {"callers": callers, "callers_hold": sharing.holds, "callers_how": sharing.how}
