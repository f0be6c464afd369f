"""One driver's count: started under callgrind, loaded and warmed up uninstrumented, K
calibrated, a JIT's rounds settled, its pairs counted, its outputs checked; a JVM that
crashed under Valgrind tried once more; a row whose level is set per process counted in
several, their pairs pooled."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from callbench.errors import DataError
from callbench.harness.count import callgrind
from callbench.harness.count.builds import Build
from callbench.harness.count.calibration import calibrated_calls
from callbench.harness.count.callgrind import CallgrindError
from callbench.harness.count.options import (
    JIT_LANGUAGES,
    JIT_MAX_CALLS,
    MAX_CALLS,
    block,
    crashed,
    jit_verdict,
    processes_for,
    round_target,
)
from callbench.harness.count.pairs import count_pairs, pairs_for
from callbench.harness.count.rounds import CountedRounds
from callbench.harness.count.settling import settle, settle_calibrated
from callbench.harness.expected import Expected, worst
from callbench.harness.launch import driver_env
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError, DriverProcess, DriverTimeoutError
from callbench.harness.verification import echo_problem
from callbench.harness.warmup import of_count
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records import count as derive
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
        self.process: DriverProcess | None = None
        self.command: list[str] = []
        self.started = time.monotonic()
        self.load_s: float | None = None
        self.warm = of_count(spec, options)
        self.warmup = self.warm.calls
        # A JIT's threads counted apart: its figure is the calling thread's, the one that
        # ran the settling rounds (their busiest).
        self.jit = language_key(spec) in JIT_LANGUAGES
        self.java = language_key(spec) == "java"
        # Instructions a counted round aims at.
        self.target = round_target(spec.id, self.jit)
        # The largest K calibration may choose; a driver may be asked for rounds of 2K calls.
        self.max_k = min(JIT_MAX_CALLS, expected.samples // 2) if self.jit else MAX_CALLS
        self.most_calls = 2 * (options.calls or self.max_k)
        self.calls = options.calls  # K when given (--calls, or a first process's); else calibrated

    def run(self) -> dict[str, Any]:
        self.started = time.monotonic()
        opts = self.options
        reason = self.spec.available()
        if reason is not None:
            return block(opts, "skipped", reason)
        if self.build.error is not None:
            return block(opts, "skipped", self.build.error, **self._build_note())
        try:
            art.verify(
                self.build.models, [art.at_batch(self.build.models, self.spec.artifact, opts.batch)]
            )
        except DataError as exc:
            return block(opts, "failed", str(exc))
        counted = self._attempt()
        if self.jit and crashed(counted) and not self.stop.is_set():
            # A JVM's C2-compiled code crashed under Valgrind now and then (a run counted
            # java-onnxruntime, the next died in C2's Reference.processPendingReferences),
            # before Java ran with precise registers (callgrind.PRECISE_REGISTERS): one more
            # try, in a fresh process, the first crash kept in the record.
            first = counted["error"]
            self._start_again("second-try")
            counted = {**self._attempt(), "crashed_before": first}
        counted = self._in_more_processes(counted)
        return jit_verdict(counted) if self.jit else counted

    def _in_more_processes(self, first: dict[str, Any]) -> dict[str, Any]:
        """``first`` and the counts of the row's further processes (processes_for), at its
        K, as one count: their pairs pooled, ``processes`` the pairs of each; the first
        that did not count, if one did not, named so."""
        wanted = processes_for(self.spec.id)
        counts = [first]
        self.calls = first.get("calls", self.calls)
        while counts[-1]["status"] == "ok" and len(counts) < wanted and not self.stop.is_set():
            self._start_again(f"process-{len(counts) + 1}")
            counts.append(self._attempt())
        if len(counts) == 1:
            return first
        if counts[-1]["status"] != "ok":
            last = counts[-1]
            return {**last, "error": f"process {len(counts)} of {wanted}: {last['error']}"}
        errors = [c["max_abs_error"] for c in counts if c["max_abs_error"] is not None]
        pooled = {
            **first, "pairs": [pair for c in counts for pair in c["pairs"]],
            "processes": [len(c["pairs"]) for c in counts],
            "seconds": round(sum(c["seconds"] for c in counts), 1),
            "max_abs_error": max(errors, default=None),
        }  # fmt: skip
        pooled.update(derive.summary(pooled))
        return pooled

    def _attempt(self) -> dict[str, Any]:
        try:
            return self._count()
        except (DriverError, CallgrindError, OSError) as exc:
            return self._failed(" ".join(filter(None, [str(exc), jvm_crash(self.workdir)])))
        finally:
            if self.process is not None:
                self.process.kill()
                self.process = None

    def _start_again(self, name: str) -> None:
        """Another process's state: its own folder (callgrind's dumps, outputs, crash log)."""
        self.workdir = self.workdir / name
        self.workdir.mkdir()
        self.out_file = self.workdir / "callgrind.out"
        self.load_s = None
        self.started = time.monotonic()

    def _build_note(self) -> dict[str, str]:
        return {} if self.build.note is None else {"build": self.build.note}

    def _failed(self, error: str) -> dict[str, Any]:
        return block(
            self.options, "failed", error, command=self.command, load_s=self.load_s,
            seconds=round(time.monotonic() - self.started, 1), warmup=self.warmup,
            **self._build_note(),
        )  # fmt: skip

    def _start(self) -> DriverProcess:
        """The driver under callgrind, in serve mode, its outputs into the workdir."""
        opts = self.options
        driver_options = opts.driver_options(
            self.most_calls, self.warm, models=self.build.models, batch=1, threads=1,
            outputs=self.workdir / "outputs.f32", serve=True,
        )  # fmt: skip
        self.command = [
            *self.build.prefix,
            *callgrind.prefix(
                self.out_file, opts.cache_sim, threads_apart=self.jit, precise=self.java
            ),
            *self.build.program(self.spec.command()),
            *driver_options.arguments(),
        ]
        env = {**driver_env(self.spec, 1), "PYTHONHASHSEED": "0", **self.build.env}
        if self.java:
            # The JVM may crash under Valgrind: its crash log goes beside the count, not into cwd.
            given = env.get("JAVA_TOOL_OPTIONS", "")
            env["JAVA_TOOL_OPTIONS"] = (
                f"{given} -XX:ErrorFile={self.workdir}/hs_err_pid%p.log".strip()
            )
        return DriverProcess(self.command, env, self.workdir, None)

    def _count(self) -> dict[str, Any]:
        opts = self.options
        if self.stop.is_set():
            return self._failed("interrupted before it started")
        self.process = self._start()
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
        rounds = CountedRounds(self.process, self.out_file, opts.round_limit, self.jit)
        calls = self.calls
        if calls is None:
            calls = calibrated_calls(rounds, self.target, self.max_k)
        more: dict[str, Any] = self._build_note()
        if self.jit:
            if self.calls is None:
                calls, settling = settle_calibrated(
                    rounds, calls, self.warmup, self.max_k, self.target
                )
            else:
                settling = settle(rounds, calls, self.warmup)
            more.update(settle=settling, threads_apart=True, counted_thread=rounds.caller)
        events, pairs = count_pairs(rounds, calls, pairs_for(opts, self.spec.id, self.jit))
        result = self.process.finish(120.0)
        self.process = None
        asked = {"driver": self.spec.id, "calls": self.most_calls, "batch": 1, "threads": 1}
        problem = echo_problem(result, asked, rounds.rounds)
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
