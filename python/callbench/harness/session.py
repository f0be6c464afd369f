"""A group of drivers timed together: loaded once, calibrated, then interleaved rounds.

Round r times every live driver once, in a shuffled order, so drift on a
shared machine hits every row alike. A round during which the driver did not
have the CPU is flagged and re-run (a bounded number of times). Only after a
driver's outputs match the reference does its record say ok.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driverkit.options import Options
from callbench.errors import ArtifactError
from callbench.harness import console, machine, planning
from callbench.harness.contention_probe import Probe
from callbench.harness.options import ATOL, LATENCY_CALLS, RunOptions
from callbench.harness.processes import DriverError, DriverProcess, kill_all
from callbench.harness.verification import compare, echo_problem
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records import contention
from callbench.records.record import Record, Round
from callbench.records.store import write_record

LOAD_LIMIT = 300.0
PROBES_FIRST = 21
# Runtimes that hold their threads to the CPUs they had at load, so load on the
# core they are timed on: OpenVINO's CPU pinning (its default, and 1.45x faster
# a call here than with it off) moves the calling thread back on every call.
HOLDS_LOAD_CPUS = frozenset({"openvino"})
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "RAYON_NUM_THREADS")  # fmt: skip


@dataclass
class Live:
    """A driver of the group and what the harness knows of it so far."""

    spec: DriverSpec
    record: Record
    workdir: Path
    process: DriverProcess | None = None
    calls: int = 0  # per round, once calibrated
    sent_rounds: int = 0  # every round command, calibration included
    expected_ns: float | None = None
    started: float = 0.0
    latencies: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def base_record(
    spec: DriverSpec, options: RunOptions, sweep: dict[str, Any] | None, tolerance: float = ATOL
) -> Record:
    return Record(
        kind="driver", id=spec.id, language=spec.language, runtime=spec.runtime,
        status="failed", artifact=spec.artifact, batch=options.batch, threads=options.threads,
        warmup=options.warmup, tolerance=tolerance, sweep=sweep,
    )  # fmt: skip


def driver_env(spec: DriverSpec, threads: int) -> dict[str, str]:
    env = dict(os.environ)
    for name in THREAD_VARIABLES:
        env[name] = str(threads)
    env.update(spec.env())
    return env


class Session:
    def __init__(
        self,
        specs: Sequence[DriverSpec],
        options: RunOptions,
        run_dir: Path,
        reference: np.ndarray,
        samples: int,
        sweep: dict[str, Any] | None = None,
        tolerance: float = ATOL,
    ) -> None:
        self.options = options
        self.run_dir = run_dir
        self.reference = reference
        # The largest error an output may have (a user's model states its own).
        self.tolerance = tolerance
        self.max_calls = options.max_calls(samples)
        self.sweep = sweep
        self.cpus = machine.driver_cpus(options.threads, options.pin)
        # Where drivers load, before they are pinned: every CPU, two loads at once.
        self.load_cpus = set(machine.usable_cpus()) if self.cpus else None
        self.probe: Callable[[], int] = Probe(self.cpus, options.seed)
        self.probes_before: list[int] = []
        self.probes_after: list[int] = []
        self._probe_flags = options.contention_flags and options.calls is None
        self._tmp = tempfile.TemporaryDirectory(prefix="callbench-")
        self.live: list[Live] = []
        self.done: list[Record] = []
        for spec in specs:
            workdir = Path(self._tmp.name) / spec.id
            workdir.mkdir()
            self.live.append(Live(spec, base_record(spec, options, sweep, tolerance), workdir))

    # ------------------------------------------------------------ the steps

    def run(self) -> list[Record]:
        try:
            # Drivers load a few at once, on every CPU, and are pinned once ready; a
            # runtime that holds its threads to the CPUs it loaded on loads pinned.
            waiting = list(self.live)
            jobs = max(1, self.options.load_jobs)
            for first in range(0, len(waiting), jobs):
                chunk = waiting[first : first + jobs]
                for n, live in enumerate(chunk, first + 1):
                    self._spawn(live, f"[{n}/{len(waiting)}]")
                for n, live in enumerate(chunk, first + 1):
                    self._ready(live, f"[{n}/{len(waiting)}]")
            for live in list(self.live):
                self._calibrate(live)
            if self._probe_flags:
                # The medians the rounds' probes are judged against start from probes of their own.
                seeds = [self.probe() for _ in range(PROBES_FIRST)]
                self.probes_before += seeds
                self.probes_after += seeds
            for index in range(self.options.rounds):
                self._round(index)
            if self.options.rounds:
                console.say(contention.describe(self.probes_before, self.probes_after))
            if self.options.latencies and self.sweep is None:
                for live in list(self.live):
                    self._latencies(live)
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

    def _spawn(self, live: Live, label: str) -> None:
        spec = live.spec
        reason = spec.available()
        if reason is not None:
            live.record.status, live.record.error = "skipped", reason
            return self._write(live)
        if self.sweep and self.sweep["kind"] == "width" and not self._width_has(spec.artifact):
            live.record.status = "skipped"
            live.record.error = f"width {self.sweep['value']} has no {spec.artifact} (not exported)"
            return self._write(live)
        try:
            art.verify(self.options.models, [spec.artifact])
        except ArtifactError as exc:
            live.record.error = str(exc)
            return self._write(live)
        driver_options = Options(
            models=self.options.models, calls=self.max_calls, warmup=self.options.warmup,
            batch=self.options.batch, threads=self.options.threads,
            outputs=live.workdir / "outputs.f32", latencies=live.workdir / "latencies.i64",
            serve=True, debug=self.options.debug,
        )  # fmt: skip
        command = [*spec.command(), *driver_options.arguments()]
        console.note(f"{label} {spec.id}: loading")
        live.started = time.monotonic()
        try:
            live.process = DriverProcess(
                command,
                driver_env(spec, self.options.threads),
                live.workdir,
                self.cpus if spec.runtime in HOLDS_LOAD_CPUS else self.load_cpus,
            )
        except OSError as exc:
            return self._fail(live, str(exc))
        return None

    def _width_has(self, artifact: str) -> bool:
        """Whether this width's export wrote ``artifact`` (the family has the portable formats)."""
        return artifact in art.read_manifest(self.options.models)["files"]

    def _ready(self, live: Live, label: str) -> None:
        if live.process is None:
            return
        try:
            ready = live.process.event("ready", LOAD_LIMIT)
            if self.cpus:
                machine.pin_process(live.process.proc.pid, self.cpus)
        except (DriverError, OSError) as exc:
            return self._fail(live, str(exc))
        live.record.load_ns = int(ready.get("load_ns", 0))
        console.clear()
        console.say(f"{label} {live.spec.id}: ready in {time.monotonic() - live.started:.1f} s")
        return None

    def _time_round(self, live: Live, calls: int) -> tuple[dict[str, Any], int | None]:
        assert live.process is not None
        steal0 = machine.steal_ns(self.cpus)
        live.process.send(f"round {calls}")
        live.sent_rounds += 1
        limit = planning.round_limit(live.expected_ns, calls, self.options.batch)
        answer = live.process.event("round", limit)
        steal1 = machine.steal_ns(self.cpus)
        steal = steal1 - steal0 if steal0 is not None and steal1 is not None else None
        if int(answer.get("calls", -1)) != calls or int(answer.get("ns", 0)) <= 0:
            raise DriverError(f"answered {answer} to `round {calls}`")
        return answer, steal

    def _calibrate(self, live: Live) -> None:
        if live.process is None:
            return
        if self.options.calls is not None:
            live.calls = self.max_calls
            return

        def time_round(calls: int) -> int:
            answer, _ = self._time_round(live, calls)
            live.expected_ns = float(answer["ns"])
            return int(answer["ns"])

        try:
            target = self.options.round_time * 1e9
            live.calls = planning.calibrate(time_round, self.max_calls, target)
        except DriverError as exc:
            self._fail(live, str(exc))

    def _round(self, index: int) -> None:
        order = planning.round_order([x for x in self.live if x.process], index, self.options.seed)
        console.note(f"round {index + 1}/{self.options.rounds}: {len(order)} drivers")
        for live in order:
            try:
                for _ in range(self.options.reruns + 1):
                    before = self.probe()
                    answer, steal = self._time_round(live, live.calls)
                    # A stretch of contention may start or end during the round:
                    # the probe on either side of it may be the one that sees it.
                    after = self.probe()
                    self.probes_before.append(before)
                    self.probes_after.append(after)
                    ns, cpu = int(answer["ns"]), answer.get("cpu_ns")
                    cpu_ns = int(cpu) if cpu is not None else None
                    ratio = (
                        max(
                            before / statistics.median(self.probes_before),
                            after / statistics.median(self.probes_after),
                        )
                        if self._probe_flags
                        else None
                    )
                    off = self._threads_off(live)
                    why = planning.flag(ns, cpu_ns, steal, self.options.threads, ratio, off)
                    live.record.rounds.append(
                        Round(index, live.calls, ns, cpu_ns, steal, why, before, after)
                    )
                    live.expected_ns = float(ns)
                    if why is None:
                        break
            except DriverError as exc:
                self._fail(live, str(exc))
        console.clear()
        flagged = sum(
            1 for x in self.live for r in x.record.rounds if r.index == index and r.flagged
        )
        extra = f", {flagged} re-run(s) of flagged rounds" if flagged else ""
        console.say(f"round {index + 1}/{self.options.rounds} done: {len(order)} drivers{extra}")

    def _threads_off(self, live: Live) -> int:
        """Threads of the driver found off its pinned CPUs, pinned back for the next round."""
        if not self.cpus or live.process is None:
            return 0
        pid = live.process.proc.pid
        off = machine.threads_off(pid, self.cpus)
        if off:
            machine.pin_process(pid, self.cpus)
        return off

    def _latencies(self, live: Live) -> None:
        if live.process is None:
            return
        calls = min(live.calls, LATENCY_CALLS)
        try:
            live.process.send(f"latencies {calls}")
            live.process.event("latencies", planning.round_limit(live.expected_ns, calls, 1) * 2)
        except DriverError as exc:
            return self._fail(live, str(exc))
        path = live.workdir / "latencies.i64"
        if path.is_file() and path.stat().st_size == 8 * calls:
            live.latencies = np.fromfile(path, dtype="<i8")
        return None

    def _finish(self, live: Live) -> None:
        if live.process is None:
            return
        record = live.record
        try:
            result = live.process.finish(120.0)
        except DriverError as exc:
            return self._fail(live, str(exc))
        live.process = None
        asked = {"driver": live.spec.id, "calls": self.max_calls,
                 "batch": self.options.batch, "threads": self.options.threads}  # fmt: skip
        problem = echo_problem(result, asked, live.sent_rounds)
        if problem is None:
            want = self.reference[: live.calls * self.options.batch]
            outputs = live.workdir / "outputs.f32"
            record.max_abs_error, problem = compare(outputs, want, self.tolerance)
        record.runtime_version = str(result.get("runtime_version") or "") or None
        record.peak_rss_bytes = _int_or_none(result.get("peak_rss_bytes"))
        notes = result.get("notes")
        record.notes = notes if isinstance(notes, dict) else {}
        if problem is not None:
            record.error = problem
            return self._write(live)
        record.status, record.error = "ok", None
        return self._write(live)

    # ------------------------------------------------------------ endings

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


def _int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def sweep_options(options: RunOptions, kind: str, value: int) -> RunOptions:
    if kind == "batch":
        return replace(options, batch=value, latencies=False)
    return replace(options, threads=value, latencies=False)
