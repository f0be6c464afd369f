"""N copies of one driver (``--processes N``), each its own process, spoken to as one driver.

The way a service uses the cores without threads: gunicorn's or uvicorn's workers, Node's
cluster, a pre-fork server, each worker holding its own model. Each copy runs one caller
of the contract as it always does; the harness sends every command to every copy, then
reads every answer, and a round runs from the first copy's start to the last copy's end
on the machine's monotonic clock (each answer's ``start_ns`` and ``end_ns``, contract 4's
Processes), so the skew of N pipe writes is not in it. A copy that fails is named
(``process P: ...``) and every copy ends with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from callbench.harness.processes import DriverError, DriverProcess
from callbench.records.record import Record

# What N copies of a row of each language are, where the record should say more than
# "N processes": a Java row's copies are N JVMs.
WHAT_COPIES_ARE = {"java": "each copy its own JVM (a JPype host, or the FFM row's own java)"}
OUTPUTS = "outputs.f32"
LATENCIES = "latencies.i64"


@dataclass
class Copy:
    process: DriverProcess
    workdir: Path  # its outputs and latencies


class Copies:
    """The copies of one driver, in ``workdir/process-P``; the driver's own latencies file
    in ``workdir`` holds every copy's."""

    def __init__(self, copies: Sequence[Copy], workdir: Path) -> None:
        self.copies = list(copies)
        self.workdir = workdir

    @classmethod
    def start(cls, n: int, workdir: Path, start: Callable[[Path], DriverProcess]) -> Copies:
        """``n`` copies started at once, copy p by ``start(workdir/process-p)``; if one
        cannot be started, those started already are killed (OSError)."""
        made: list[Copy] = []
        try:
            for p in range(n):
                folder = workdir / f"process-{p}"
                folder.mkdir(exist_ok=True)
                made.append(Copy(start(folder), folder))
        except OSError:
            for copy in made:
                copy.process.kill()
            raise
        return cls(made, workdir)

    @property
    def outputs(self) -> list[Path]:
        return [c.workdir / OUTPUTS for c in self.copies]

    def _each(self, what: Callable[[DriverProcess], Any]) -> list[Any]:
        """``what`` of every copy in order; DriverError naming the first copy that fails."""
        done = []
        for p, copy in enumerate(self.copies):
            try:
                done.append(what(copy.process))
            except DriverError as exc:
                raise type(exc)(f"process {p}: {exc}") from None
        return done

    # ------------------------------------------------------------ talking

    def send(self, command: str) -> None:
        self._each(lambda process: process.send(command))

    def each_send(self, commands: Sequence[str]) -> None:
        """Copy p its own command, ``commands[p]`` (a paced round's own schedule)."""
        for p, (copy, command) in enumerate(zip(self.copies, commands, strict=True)):
            try:
                copy.process.send(command)
            except DriverError as exc:
                raise type(exc)(f"process {p}: {exc}") from None

    def each_event(self, expected: str, limit: float) -> list[dict[str, Any]]:
        """Every copy's own answer to the command sent, in copy order."""
        return self._each(lambda process: process.event(expected, limit))

    def event(
        self, expected: str, limit: float, *, warming_limit: float | None = None,
        on_warming: Callable[[], None] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Every copy's answer to the command sent, as one driver's answer."""
        told: list[bool] = []

        def warming() -> None:  # said once, by the first copy that warms up
            if on_warming is not None and not told:
                told.append(True)
                on_warming()

        answers = self._each(lambda process: process.event(
            expected, limit, warming_limit=warming_limit, on_warming=warming))  # fmt: skip
        if expected == "ready":
            return {"event": "ready", "load_ns": max(int(a.get("load_ns", 0)) for a in answers),
                    "warmup_calls": min(int(a.get("warmup_calls", 0)) for a in answers),
                    "warmup_ns": max(int(a.get("warmup_ns", 0)) for a in answers)}  # fmt: skip
        if expected == "round":
            return spanned(answers)
        if expected == "latencies":
            self._gather_latencies()
        first: dict[str, Any] = answers[0]
        return first

    def _gather_latencies(self) -> None:
        """Every copy's latencies in the driver's own file, copy after copy."""
        files = [c.workdir / LATENCIES for c in self.copies]
        if all(f.is_file() for f in files):
            joined = np.concatenate([np.fromfile(f, dtype="<i8") for f in files])
            joined.tofile(self.workdir / LATENCIES)

    def finish(self, limit: float) -> list[dict[str, Any]]:
        """Every copy's result line, once each has exited with status 0 (DriverError)."""
        return self._each(lambda process: process.finish(limit))

    # ------------------------------------------------------------ placing and ending

    def pids(self) -> list[int]:
        """Every copy's process, to pin (the harness pins them all to the driver's cores)."""
        return [c.process.proc.pid for c in self.copies]

    def kill(self) -> None:
        for copy in self.copies:
            copy.process.kill()


def add_up_peaks(record: Record, peaks: Sequence[int | None], language: str) -> None:
    """The record's memory at --processes N: the copies' peaks added up (None where one is
    unknown), each listed in its notes, with what a copy is in ``language`` where it is
    more than one process of its program (``WHAT_COPIES_ARE``)."""
    known = [b for b in peaks if b is not None]
    record.peak_rss_bytes = sum(known) if len(known) == len(peaks) else None
    record.notes["process_peak_rss_bytes"] = list(peaks)
    record.notes["peak_rss"] = ("the copies' peaks added up (pages they share, such as "
                                "the libraries' code, counted in each)")  # fmt: skip
    if (what := WHAT_COPIES_ARE.get(language)) is not None:
        record.notes["processes_are"] = what


def spanned(answers: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """N copies' answers to one ``round K`` as one round of N callers: ``ns`` from the first
    start to the last end, ``cpu_ns`` all copies', ``caller_ns`` each copy's own span."""
    for p, answer in enumerate(answers):
        if not all(isinstance(answer.get(key), int) for key in ("start_ns", "end_ns")):
            raise DriverError(f"process {p}: its round answer says nothing of when the round "
                              f"ran (no start_ns and end_ns): {dict(answer)}")  # fmt: skip
        if answer.get("calls") != answers[0].get("calls"):
            raise DriverError(f"process {p}: answered {dict(answer)}, the others "
                              f"{answers[0].get('calls')} calls")  # fmt: skip
    first = min(int(a["start_ns"]) for a in answers)
    last = max(int(a["end_ns"]) for a in answers)
    cpu = [int(a["cpu_ns"]) for a in answers if a.get("cpu_ns") is not None]
    return {"event": "round", "calls": answers[0]["calls"], "ns": last - first,
            "cpu_ns": sum(cpu) if len(cpu) == len(answers) else None,
            "callers": len(answers), "caller_ns": [int(a["ns"]) for a in answers],
            "start_ns": first, "end_ns": last}  # fmt: skip
