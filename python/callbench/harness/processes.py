"""One driver process kept alive between rounds: start it, talk to it, end it.

Each driver runs in its own session (process group), pinned where the run
pins, with its stdout read line by line with a time limit; stderr goes to a
file whose last line is the error a record shows.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any

from callbench.harness.signals import child_setup

VALGRIND_LINE = re.compile(r"^==\d+==")
# The JVM's note that it read JAVA_TOOL_OPTIONS, printed first: never the error.
JVM_OPTIONS_LINE = re.compile(r"^Picked up (JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS):")
# A Valgrind panic's first line, the one that says what went wrong: Valgrind's own
# ("the 'impossible' happened:", its reason on the next line) or a failed assertion of
# Valgrind or its tool ("Callgrind: threads.c:247 (vgCallgrind_post_signal): Assertion
# '...' failed.", what a Go program's preemption signal meets). The panic then prints
# stacks and ends in a plea to report it, which says nothing of the panic.
VALGRIND_PANIC = re.compile(r"^(valgrind|vex): the .impossible. happened:?$")
VALGRIND_ASSERTION = re.compile(r"^(valgrind|vex|[A-Z][a-z]+): \S+:\d+ \(.*\): Assertion .* failed")
# Every live driver process, so a signal can end them all.
LIVE: set[DriverProcess] = set()


class DriverError(Exception):
    """A driver process that crashed, hung, or said something the contract does not allow."""


class DriverTimeoutError(DriverError):
    """A driver that did not answer within its time limit (it has been killed)."""


class DriverProcess:
    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        workdir: Path,
        cpus: set[int] | None,
    ) -> None:
        self.stderr_path = workdir / "stderr"
        self._stderr = self.stderr_path.open("wb")
        self.proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,
            env=dict(env),
            preexec_fn=partial(child_setup, cpus),
        )
        LIVE.add(self)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self._out: IO[bytes] = self.proc.stdout
        self._in: IO[bytes] = self.proc.stdin
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._buffer = b""
        self.lines: list[str] = []  # every stdout line, for the result line

    # ------------------------------------------------------------ talking

    def send(self, command: str) -> None:
        try:
            self._in.write(command.encode() + b"\n")
            self._in.flush()
        except (BrokenPipeError, OSError):
            raise DriverError(self.failure("stopped reading its commands")) from None

    def _readline(
        self, deadline: float, extend: Callable[[], float | None] | None = None
    ) -> str | None:
        """The next stdout line; None at end of output; DriverError past the deadline (or
        the one ``extend`` gives, asked every second)."""
        while b"\n" not in self._buffer:
            if extend is not None and (later := extend()) is not None:
                deadline = later
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise DriverTimeoutError("killed after the time limit")
            if not self._selector.select(timeout=min(left, 1.0)):
                continue
            chunk = os.read(self._out.fileno(), 65536)
            if not chunk:
                if self._buffer:
                    line, self._buffer = self._buffer, b""
                    return line.decode("utf-8", "replace")
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def event(
        self,
        expected: str,
        limit: float,
        *,
        warming_limit: float | None = None,
        on_warming: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """The next JSON line with ``"event": expected`` (other stdout lines are skipped).

        With ``warming_limit``, ``limit`` is the load's: once the driver's stderr says
        ``progress: warm-up`` the wait runs on for ``warming_limit`` from then (a slow call's
        warm-up is not a load that hung), ``on_warming`` told once."""
        deadline = time.monotonic() + limit
        warming = warming_limit is None

        def extend() -> float | None:
            nonlocal warming
            if warming or last_progress(self.stderr_path) != "warm-up":
                return None
            warming = True
            if on_warming is not None:
                on_warming()
            assert warming_limit is not None
            return time.monotonic() + warming_limit

        while True:
            line = self._readline(deadline, extend)
            if line is None:
                raise DriverError(self.failure(f"ended before answering with {expected!r}"))
            self.lines.append(line)
            data = _json_object(line)
            if data is not None and "event" in data:
                if data["event"] != expected:
                    raise DriverError(f"answered {data['event']!r} where {expected!r} was due")
                return data

    def finish(self, limit: float) -> dict[str, Any]:
        """Send ``end``; the result line, once the process has exited with status 0."""
        self.send("end")
        with contextlib.suppress(OSError):
            self._in.close()
        deadline = time.monotonic() + limit
        while (line := self._readline(deadline)) is not None:
            self.lines.append(line)
        try:
            code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            raise DriverError("did not exit after `end`") from None
        if code != 0:
            raise DriverError(self.failure(f"exit status {code}"))
        lines = [ln for ln in self.lines if ln.strip()]
        result = _json_object(lines[-1]) if lines else None
        if result is None:
            raise DriverError("the last line of stdout is not a JSON object (the result line)")
        self.close()
        return result

    # ------------------------------------------------------------ ending

    def pids(self) -> list[int]:
        """The process to pin (a list, as N copies of a driver give: harness/copies.py)."""
        return [self.proc.pid]

    def failure(self, what: str) -> str:
        """The driver's own last error line, or ``what`` with how the process ended."""
        code = self.proc.poll()
        if code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(timeout=5)
        line = error_line(self.stderr_path)
        if code is not None and code < 0:
            crashed = f"crashed with signal {signal.Signals(-code).name}"
            return f"{crashed}: {line}" if line else crashed
        return line or what

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.close()

    def close(self) -> None:
        LIVE.discard(self)
        self._selector.close()
        for stream in (self._out, self._in, self._stderr):
            with contextlib.suppress(OSError):
                stream.close()


def kill_all() -> None:
    for process in list(LIVE):
        process.kill()


def _json_object(line: str) -> dict[str, Any] | None:
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _tail(stderr_path: Path, limit: int) -> str | None:
    """The last ``limit`` bytes of the driver's stderr, as text; None if it cannot be read."""
    try:
        with stderr_path.open("rb") as f:
            f.seek(max(0, stderr_path.stat().st_size - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def last_progress(stderr_path: Path, limit: int = 4096) -> str | None:
    """The stage of the newest ``progress: <stage>`` line on stderr, if any."""
    text = _tail(stderr_path, limit)
    if text is None:
        return None
    stages = [ln[len("progress:"):].strip() for ln in text.splitlines()
              if ln.startswith("progress:")]  # fmt: skip
    return stages[-1] if stages else None


def error_line(stderr_path: Path, limit: int = 1 << 16) -> str | None:
    """The last stderr line that is not a progress line."""
    text = _tail(stderr_path, limit)
    if text is None:
        return None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for n, line in enumerate(lines[:-1]):
        if VALGRIND_PANIC.match(line):
            return f"{line} {lines[n + 1]}"[:500]
        if VALGRIND_ASSERTION.match(line):
            return line[:500]
    # Valgrind's own lines (``==PID== ...``) are not the driver's error.
    lines = [ln for ln in lines if not ln.startswith("progress:")
             and not VALGRIND_LINE.match(ln) and not JVM_OPTIONS_LINE.match(ln)]  # fmt: skip
    return lines[-1][:500] if lines else None
