"""A group of drivers timed together: loaded once, calibrated, then interleaved rounds.

Round r times every live driver once, in a shuffled order, so drift on a
shared machine hits every row alike. Starting a driver is launch.py's, how
rounds are timed and flagged round_policy.py's, the checks verification.py's;
a driver's record says ok only after its outputs match the reference.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from callbench.errors import DataError
from callbench.harness import console, planning, skips, traces
from callbench.harness.copies import Copies, add_up_peaks
from callbench.harness.expected import Expected, outputs_of
from callbench.harness.launch import Live, Placement, base_record, start, wait_ready
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError, kill_all
from callbench.harness.round_policy import RoundPolicy, flagged_in
from callbench.harness.verification import settle
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.records.store import write_record
from callbench.registry import language_key

# Sweeps whose points keep their latency rounds: p99 is half of what many callers ask, and
# the ways of using the cores (cores_plan) set theirs beside it.
MANY = ("callers", "processes", "intra-op", "batching")


class Session:
    def __init__(
        self,
        specs: Sequence[DriverSpec],
        options: RunOptions,
        run_dir: Path,
        expected: Expected,
        sweep: dict[str, Any] | None = None,
    ) -> None:
        self.options = options
        self.run_dir = run_dir
        # Each output's reference and the largest error it may have.
        self.expected = expected
        self.max_calls = options.max_calls(expected.samples)
        self.sweep = sweep
        self.place = Placement.of(options)
        self.rounds = RoundPolicy(options, self.place, self.max_calls)
        self._tmp = tempfile.TemporaryDirectory(prefix="callbench-")
        self.live: list[Live] = []
        self.done: list[Record] = []
        for spec in specs:
            workdir = Path(self._tmp.name) / spec.id
            workdir.mkdir()
            record = base_record(spec, options, sweep, expected.tolerance)
            self.live.append(Live(spec, record, workdir))

    def run(self) -> list[Record]:
        try:
            self._load()
            for live in self._running():
                self._step(live, self.rounds.calibrate)
            self.rounds.seed_probes()
            for index in range(self.options.rounds):
                self._round(index)
            if self.options.rounds:
                console.say(self.rounds.contention())
            if self.options.latencies and (self.sweep is None or self.sweep["kind"] in MANY):
                began, timed = time.monotonic(), self._running()
                for live in timed:
                    self._step(live, self.rounds.latencies)
                if timed:  # what the p50 and p99 cost the group, said for the bench's log
                    console.say(f"latency rounds: {time.monotonic() - began:.1f} s for "
                                f"{len(timed)} drivers")  # fmt: skip
            for live in list(self.live):
                self._finish(live)
        except KeyboardInterrupt as stop:
            kill_all()
            why = getattr(stop, "name", "Ctrl-C")
            for live in self.live:
                live.record.error = f"interrupted ({why}) after {len(live.record.rounds)} rounds"
                self._write(live)
            raise
        finally:
            kill_all()
            self._tmp.cleanup()
        return self.done

    def _load(self) -> None:
        """Start the drivers a few at once (``load_jobs``); each is pinned once ready."""
        waiting = list(self.live)
        jobs = max(1, self.options.load_jobs)
        for first in range(0, len(waiting), jobs):
            chunk = list(enumerate(waiting[first : first + jobs], first + 1))
            for n, live in chunk:
                self._start(live, f"[{n}/{len(waiting)}]")
            for n, live in chunk:
                if live.process is not None:
                    label = f"[{n}/{len(waiting)}]"
                    self._step(live, partial(wait_ready, place=self.place, label=label))

    def _start(self, live: Live, label: str) -> None:
        spec = live.spec
        reason = spec.available() or skips.why(spec, self.options, self.sweep)
        if reason is not None:
            live.record.status, live.record.error = "skipped", reason
            return self._write(live)
        try:
            traces.verify(live.record, spec, self.options.models, self.options.batch)
            start(live, self.options, self.max_calls, self.place, label)
        except (DataError, OSError) as exc:
            return self._fail(live, str(exc))
        return None

    def _running(self) -> list[Live]:
        return [live for live in self.live if live.process is not None]

    def _step(self, live: Live, step: Callable[[Live], object]) -> bool:
        """Run one step of a driver's dialogue; a driver that fails it leaves the group."""
        try:
            step(live)
        except (DriverError, OSError) as exc:
            self._fail(live, str(exc))
            return False
        return True

    def _round(self, index: int) -> None:
        order = planning.round_order(self._running(), index, self.options.seed)
        console.note(f"round {index + 1}/{self.options.rounds}: {len(order)} drivers")
        for live in order:
            self._step(live, lambda x: self.rounds.play(x, index))
        console.clear()
        flagged = flagged_in(self.live, index)
        extra = f", {flagged} re-run(s) of flagged rounds" if flagged else ""
        console.say(f"round {index + 1}/{self.options.rounds} done: {len(order)} drivers{extra}")

    def _finish(self, live: Live) -> None:
        """The result line and outputs checked: one process's, or at --processes N every
        copy's (each calls one caller's samples; the record's memory is their peaks added
        up, each listed in its notes)."""
        process = live.process
        if process is None:
            return
        try:
            ended = process.finish(120.0)
        except DriverError as exc:
            return self._fail(live, str(exc))
        live.process = None
        copies = isinstance(process, Copies)
        results = ended if isinstance(ended, list) else [ended]
        outputs = process.outputs if isinstance(process, Copies) else [live.workdir / "outputs.f32"]
        callers, batch = self.options.callers, self.options.batch
        asked = {
            "driver": live.spec.id,
            "calls": self.max_calls,
            "batch": batch,
            "threads": self.options.threads,
        } | ({"callers": callers} if callers > 1 else {})
        try:
            want = outputs_of(self.expected, live.spec, self.options, live.calls)
        except DataError as exc:
            return self._fail(live, str(exc))
        record, peaks, problem = live.record, [], None
        for p, (result, written) in enumerate(zip(results, outputs, strict=True)):
            if problem := settle(record, result, asked, live.sent_rounds, written, want):
                problem = f"process {p}: {problem}" if copies else problem
                break
            peaks.append(record.peak_rss_bytes)
        if problem is None and copies:
            add_up_peaks(record, peaks, language_key(live.spec))
        record.callers_verified = None if problem else callers * len(results)
        record.status, record.error = ("failed", problem) if problem else ("ok", None)
        return self._write(live)

    def _fail(self, live: Live, error: str) -> None:
        if live.process is not None:
            live.process.kill()
            live.process = None
        live.record.status, live.record.error = "failed", error
        self._write(live)

    def _write(self, live: Live) -> None:
        """Write the record once; the driver leaves the group."""
        if live in self.live:
            self.live.remove(live)
        latencies = live.latencies if live.record.status == "ok" else None
        write_record(self.run_dir, live.record, latencies)
        self.done.append(live.record)
        if live.record.status != "ok" or self.options.rounds:
            console.clear()
            console.say(f"  {live.spec.id}: {console.figure(live.record)}")
