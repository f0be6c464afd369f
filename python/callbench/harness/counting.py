"""Instructions per call: each driver served under callgrind, its rounds counted, not timed.

A count does not move with a neighbour's load, so it is the figure to compare
on a shared machine (as ``torch.utils.benchmark``'s ``collect_callgrind``,
CodSpeed and Gungraun do). Each driver loads and warms up uninstrumented;
then, a few times, a round of K calls and one of 2K calls are each counted
alone (instrumentation on, ``round``, instrumentation off, dump). Its outputs
are checked against the reference as in a timed run: a driver whose outputs
do not match gets no figure. Two drivers are counted at once, unpinned.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from callbench.errors import DataError, RunError
from callbench.harness import callgrind, console
from callbench.harness.callgrind import CallgrindError
from callbench.harness.count_builds import Build, builds_for
from callbench.harness.count_options import (
    JIT_LANGUAGES,
    JIT_MAX_CALLS,
    JIT_TARGET_INSTRUCTIONS,
    MAX_CALLS,
    MIN_CALLS,
    SETTLE_ROUNDS,
    TARGET_INSTRUCTIONS,
    block,
    calls_for,
    crashed,
    jit_verdict,
    settled,
)
from callbench.harness.expected import Expected, read_expected, worst
from callbench.harness.launch import base_record, driver_env
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError, DriverProcess, DriverTimeoutError, kill_all
from callbench.harness.verification import echo_problem
from callbench.harness.warmup import of_count
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records import count as derive
from callbench.records.record import Record
from callbench.records.store import read_record, write_record
from callbench.registry import language_key


class Counter:
    """One driver's count: started under callgrind, its rounds counted, its outputs checked."""

    def __init__(
        self,
        spec: DriverSpec,
        options: RunOptions,
        workdir: Path,
        expected: Expected,
        stop: threading.Event,
        build: Build | None = None,
    ) -> None:
        self.spec, self.options, self.workdir = spec, options, workdir
        # What the count runs: the timed build, or one made for AVX2 (count_builds).
        self.build = build or Build(options.models)
        self.stop = stop  # set on Ctrl-C: start no driver
        self.expected = expected
        self.out_file = workdir / "callgrind.out"
        self.dumps = 0
        self.process: DriverProcess | None = None
        self.command: list[str] = []
        self.started = time.monotonic()
        self.load_s: float | None = None
        self.warm = of_count(spec, options)
        self.warmup = self.warm.calls
        # A JIT's threads counted apart: its figure is the calling thread's, the one that
        # ran the settling rounds (their busiest); None until then.
        self.jit = language_key(spec) in JIT_LANGUAGES
        # The largest K calibration may choose; a driver may be asked for rounds of 2K calls.
        self.max_k = min(JIT_MAX_CALLS, expected.samples // 2) if self.jit else MAX_CALLS
        self.most_calls = 2 * (options.calls or self.max_k)
        self.caller: int | None = None
        self.busiest: int | None = None  # the last round's busiest thread
        self.served = 0  # calls of the counted rounds so far

    def run(self) -> dict[str, Any]:
        self.started = time.monotonic()
        opts = self.options
        reason = self.spec.available()
        if reason is not None:
            return block(opts, "skipped", reason)
        if self.build.error is not None:
            return block(opts, "skipped", self.build.error, **self._build_note())
        try:
            art.verify(self.build.models, [self.spec.artifact])
        except DataError as exc:
            return block(opts, "failed", str(exc))
        counted = self._attempt()
        if self.jit and crashed(counted) and not self.stop.is_set():
            # A JVM's C2-compiled code crashes under Valgrind now and then (a run counted
            # java-onnxruntime, the next died in C2's Reference.processPendingReferences):
            # one more try, in a fresh process, the first crash kept in the record.
            first = counted["error"]
            self._start_again()
            counted = {**self._attempt(), "crashed_before": first}
        return jit_verdict(counted) if self.jit else counted

    def _attempt(self) -> dict[str, Any]:
        try:
            return self._count()
        except (DriverError, CallgrindError, OSError) as exc:
            return self._failed(" ".join(filter(None, [str(exc), jvm_crash(self.workdir)])))
        finally:
            if self.process is not None:
                self.process.kill()
                self.process = None

    def _start_again(self) -> None:
        """A second try's state: its own folder (callgrind's dumps, outputs, crash log)."""
        self.workdir = self.workdir / "second-try"
        self.workdir.mkdir()
        self.out_file = self.workdir / "callgrind.out"
        self.dumps, self.served, self.load_s = 0, 0, None
        self.caller = self.busiest = None
        self.started = time.monotonic()

    def _build_note(self) -> dict[str, str]:
        return {} if self.build.note is None else {"build": self.build.note}

    def _failed(self, error: str) -> dict[str, Any]:
        return block(
            self.options, "failed", error, command=self.command, load_s=self.load_s,
            seconds=round(time.monotonic() - self.started, 1), warmup=self.warmup,
            **self._build_note(),
        )  # fmt: skip

    def _count(self) -> dict[str, Any]:
        opts = self.options
        driver_options = opts.driver_options(
            self.most_calls, self.warm, models=self.build.models, batch=1, threads=1,
            outputs=self.workdir / "outputs.f32", serve=True,
        )  # fmt: skip
        self.command = [
            *self.build.prefix,
            *callgrind.prefix(self.out_file, opts.cache_sim, threads_apart=self.jit),
            *self.spec.command(),
            *driver_options.arguments(),
        ]
        env = {**driver_env(self.spec, 1), "PYTHONHASHSEED": "0", **self.build.env}
        if language_key(self.spec) == "java":
            # The JVM may crash under Valgrind: its crash log goes beside the count, not into cwd.
            given = env.get("JAVA_TOOL_OPTIONS", "")
            env["JAVA_TOOL_OPTIONS"] = (
                f"{given} -XX:ErrorFile={self.workdir}/hs_err_pid%p.log".strip()
            )
        if self.stop.is_set():
            return self._failed("interrupted before it started")
        self.process = DriverProcess(self.command, env, self.workdir, None)
        try:
            self.process.event("ready", opts.load_limit)
        except DriverTimeoutError:
            return block(
                opts, "skipped",
                f"did not load within {opts.load_limit:.0f} s under Valgrind "
                "(instrumentation off); a count would not fit the budget",
                command=self.command, warmup=self.warmup, **self._build_note(),
            )  # fmt: skip
        self.load_s = round(time.monotonic() - self.started, 1)
        calls, sent = opts.calls, 0
        if calls is None:
            # One short counted round says roughly what a call costs.
            events, first = self._counted_round(MIN_CALLS)
            target = JIT_TARGET_INSTRUCTIONS if self.jit else TARGET_INSTRUCTIONS
            per_call = first[events.index(derive.INSTRUCTIONS)] / MIN_CALLS
            calls, sent = calls_for(per_call, target, self.max_k), 1
        more: dict[str, Any] = self._build_note()
        if self.jit:
            settle = self._settle(calls)
            warm_k = calls_for(settle["figures"][-1], JIT_TARGET_INSTRUCTIONS, self.max_k)
            if opts.calls is None and settle["settled"] and warm_k != calls:
                # The first counted round of a JIT row carries one-off work (a JVM's ran
                # 600,000 instructions a call over 100 calls, against 28,000 warm): K is
                # calibrated again from the warm figure, and the rounds settle again at
                # that K (a JVM's first pair at the new K still ran 1.5% above the rest).
                calls = warm_k
                again = self._settle(calls)
                settle = {**again, "figures": settle["figures"] + again["figures"]}
            sent += len(settle["figures"])
            more.update(settle=settle, threads_apart=True, counted_thread=self.caller)
        pairs = []
        for _ in range(opts.pairs):
            events, single = self._counted_round(calls)
            _, double = self._counted_round(2 * calls)
            pairs.append({"single": single, "double": double})
        result = self.process.finish(120.0)
        self.process = None
        asked = {"driver": self.spec.id, "calls": self.most_calls, "batch": 1, "threads": 1}
        problem = echo_problem(result, asked, sent + 2 * opts.pairs)
        error = None
        if problem is None:
            checked, problem = self.expected.first(2 * calls).check(self.workdir / "outputs.f32")
            error = nearest.max_abs_error if (nearest := worst(checked)) else None
        seconds = round(time.monotonic() - self.started, 1)
        if problem is not None:
            # Outputs that do not match earn no figure: the raw counts go too.
            return self._failed(problem)
        counted = block(
            opts, "ok", None, command=self.command, events=events, pairs=pairs, calls=calls,
            warmup=self.warmup, max_abs_error=error, load_s=self.load_s, seconds=seconds, **more,
        )  # fmt: skip
        counted.update(derive.summary(counted))
        return counted

    def _settle(self, calls: int) -> dict[str, Any]:
        """Counted rounds of ``calls`` until two successive ones agree a call, their busiest
        thread the same (the JIT warm, and that thread the caller), at most SETTLE_ROUNDS:
        each round's instructions a call, and whether they settled."""
        figures: list[float] = []
        threads: list[int | None] = []

        def warm() -> bool:
            return settled(figures) and len(set(threads[-2:])) == 1

        while len(figures) < SETTLE_ROUNDS and not warm():
            events, counts = self._counted_round(calls)
            threads.append(self.busiest)
            figures.append(counts[events.index(derive.INSTRUCTIONS)] / calls)
        self.caller = threads[-1]
        return {"figures": figures, "settled": warm(),
                "calls_before_pairs": self.warmup + self.served}  # fmt: skip

    def _counted_round(self, calls: int) -> tuple[list[str], list[int]]:
        """One round of ``calls`` counted alone: its events and counts (with threads apart,
        the calling thread's; before it is known, the busiest thread's)."""
        assert self.process is not None
        pid = self.process.proc.pid
        callgrind.instrument(pid, True)
        self.process.send(f"round {calls}")
        answer = self.process.event("round", self.options.round_limit)
        callgrind.instrument(pid, False)
        if int(answer.get("calls", -1)) != calls:
            raise DriverError(f"answered {answer} to `round {calls}`")
        self.dumps += 1
        self.served += calls
        if not self.jit:
            return callgrind.dump(pid, self.out_file, self.dumps)
        events, per_thread = callgrind.dump_threads(pid, self.out_file, self.dumps)
        if self.caller is None:
            self.busiest, counts = callgrind.busiest(events, per_thread)
            return events, counts
        if self.caller not in per_thread:
            raise CallgrindError(f"thread {self.caller}, the calling thread, ran no round")
        return events, per_thread[self.caller]


# A JVM's crash log's header lines that say nothing of this crash.
JVM_LOG_BOILERPLATE = (
    "A fatal error", "JRE version", "Java VM:", "Core dump", "No core dump", "If you would",
    "http", "The crash happened", "See problematic frame",
)  # fmt: skip


def jvm_crash(workdir: Path) -> str | None:
    """What a JVM that crashed under the count wrote in its crash log (``hs_err_pid*.log``,
    written into ``workdir``): the signal or internal error and the frame, in one line."""
    logs = sorted(workdir.glob("hs_err_pid*.log"))
    if not logs:
        return None
    said = []
    for line in logs[0].read_text(errors="replace").splitlines():
        if not line.startswith("#"):
            break
        text = line.lstrip("#").strip()
        if text and not text.startswith(JVM_LOG_BOILERPLATE):
            said.append(text)
    return f"(the JVM's crash log: {'; '.join(said)})"[:600] if said else None


def _record(run_dir: Path, spec: DriverSpec, counted: dict[str, Any]) -> Record:
    """The driver's record in the run with its count; a new, untimed one if it had none."""
    path = run_dir / f"{spec.id}.json"
    if path.is_file():
        try:
            record = read_record(path)
        except RunError as exc:
            console.say(f"  {spec.id}: {exc}; its record is written anew")
        else:
            record.count = counted
            return record
    record = base_record(spec, RunOptions(), None)
    record.status, record.error = "skipped", "not timed in this run (instructions counted only)"
    record.warmup = int(counted.get("warmup", 0))
    record.count = counted
    return record


def describe(counted: dict[str, Any]) -> str:
    if counted["status"] != "ok":
        return f"{counted['status']}: {counted['error']}"
    text = f"{counted['instructions_per_call']:,.0f} instructions/call"
    if counted.get("est_cycles_per_call") is not None:
        text += f", ~{counted['est_cycles_per_call']:,.0f} est. cycles"
    width = counted.get("spread")
    if width is not None:
        text += f" (pairs within {width:.2%}{', varying' if counted['varying'] else ''})"
    return text + f" [{counted['seconds']:.0f} s]"


def count_drivers(specs: Sequence[DriverSpec], options: RunOptions, run_dir: Path) -> list[Record]:
    """Count each driver, ``options.jobs`` at once; each record is written as its count ends."""
    expected = read_expected(options.models, art.signature(options.models))
    most = 2 * (options.calls or MAX_CALLS)
    if most > expected.samples:
        raise RunError(
            f"a pair's second round takes up to {most} samples, "
            f"{options.models / expected.outputs[0][0].file} holds {expected.samples}"
        )
    reason = callgrind.unavailable()
    done: list[Record] = []

    def write(spec: DriverSpec, counted: dict[str, Any]) -> None:
        record = _record(run_dir, spec, counted)
        write_record(run_dir, record)
        done.append(record)
        console.clear()
        console.say(f"  {spec.id}: {describe(counted)}")

    if reason is not None:
        for spec in specs:
            write(spec, block(options, "skipped", reason))
        return done
    k = options.calls or f"calibrated, {MIN_CALLS}-{MAX_CALLS}, a JIT row's up to {JIT_MAX_CALLS}"
    console.say(
        f"counting {len(specs)} drivers under callgrind into {run_dir.name}: "
        f"{options.pairs} pairs of rounds of K and 2K calls (K {k}), {options.jobs} at once"
    )
    with tempfile.TemporaryDirectory(prefix="callbench-count-") as tmp:
        builds = builds_for(specs, options.models, Path(tmp))
        pool = ThreadPoolExecutor(max_workers=max(1, options.jobs))
        stop = threading.Event()
        running: dict[Future[dict[str, Any]], DriverSpec] = {}
        for spec in specs:
            workdir = Path(tmp) / spec.id
            workdir.mkdir()
            counter = Counter(spec, options, workdir, expected, stop, builds[spec.id])
            running[pool.submit(counter.run)] = spec
        try:
            pending = set(running)
            while pending:
                finished, pending = wait(pending, timeout=1.0, return_when="FIRST_COMPLETED")
                for future in finished:
                    write(running[future], future.result())
        except KeyboardInterrupt as interrupt:
            stop.set()
            for future in pending:
                future.cancel()
            kill_all()
            why = getattr(interrupt, "name", "SIGINT")
            for future in pending:
                if not future.cancelled():
                    write(running[future], block(options, "failed", f"interrupted ({why})"))
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            kill_all()
    return done
