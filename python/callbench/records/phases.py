"""Where a bench's time went: the seconds of each phase, from the environment's install to
the report, kept in the run's env.json (``phases``, docs/env.schema.json) and said in one line.

A phase is timed where it runs (``Phases.timed``); the nox session's own install, which
ends before callbench starts, arrives as seconds in ``VENV_SECONDS``. A run folder shared
by several invocations (``nox -s bench-cpp bench-java``) gathers every invocation's phases.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from callbench.errors import RunError
from callbench.paths import DOCS
from callbench.records import schema
from callbench.records.store import ENV_FILE, write_json

SCHEMA_FILE = DOCS / "env.schema.json"
# Set by the noxfile: the seconds its session spent making the environment and installing.
VENV_SECONDS = "CALLBENCH_VENV_SECONDS"
# How a build began: with none of its build folders there, or reusing them.
COLD, CACHED = "cold", "cached"


@dataclass(frozen=True)
class Phase:
    """One timed step: ``phase`` is venv, export, build, measure, sweeps, callers, widths,
    kernels, ladder or report; a build names its language and how it began."""

    phase: str
    seconds: float
    language: str | None = None
    build: str | None = None
    failed: bool = False

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None and v is not False}


class Phases:
    """The phases of one invocation, in the order they ran."""

    def __init__(self) -> None:
        self.done: list[Phase] = []
        self.written = 0  # how many of them env.json already holds
        venv = os.environ.get(VENV_SECONDS)
        # A value not a number is not ours to fail a run over: the phase goes unrecorded.
        with suppress(ValueError):
            self.done.append(Phase("venv", round(float(venv or ""), 3)))

    @contextmanager
    def timed(self, phase: str, language: str | None = None, build: str | None = None
              ) -> Iterator[None]:  # fmt: skip
        """Time the block as ``phase``; one that raises is kept, marked failed."""
        started = time.perf_counter()
        failed = True
        try:
            yield
            failed = False
        finally:
            seconds = round(time.perf_counter() - started, 3)
            self.done.append(Phase(phase, seconds, language, build, failed))

    def add(self, phase: Phase) -> None:
        self.done.append(phase)

    def write(self, run_dir: Path) -> None:
        """Add the phases not yet written to the run's env.json (after any an earlier
        invocation wrote)."""
        path = run_dir / ENV_FILE
        try:
            env = json.loads(path.read_text()) if path.is_file() else {}
        except (OSError, json.JSONDecodeError) as exc:
            raise RunError(f"{path}: cannot add the phases: {exc}") from None
        new = [p.as_json() for p in self.done[self.written :]]
        env["phases"] = [*env.get("phases", []), *new]
        found = sorted(schema.validator(SCHEMA_FILE).iter_errors(env), key=lambda e: e.path)
        if found:
            where = "/".join(map(str, found[0].absolute_path)) or "(env)"
            raise RunError(f"{path}: invalid env: {where}: {found[0].message}")
        write_json(path, env)
        self.written = len(self.done)

    def summary(self) -> str:
        """The console's last line: ``callbench:`` and the phases (``summarised``)."""
        return f"callbench: {summarised(self.done)}"


def summarised(phases: Sequence[Phase]) -> str:
    """The whole, then each phase (builds together, each language's after), in one line."""
    total = sum(p.seconds for p in phases)
    parts: list[str] = []
    builds = [p for p in phases if p.phase == "build"]
    for phase in phases:
        if phase.phase != "build":
            parts.append(f"{phase.phase} {duration(phase.seconds)}{failed(phase)}")
        elif phase is builds[0]:
            each = ", ".join(f"{p.language} {duration(p.seconds)} {p.build}{failed(p)}"
                             for p in builds)  # fmt: skip
            parts.append(f"builds {duration(sum(p.seconds for p in builds))} ({each})")
    return f"{duration(total)} in all: {'; '.join(parts)}"


def recorded(env: Mapping[str, Any]) -> list[Phase]:
    """The phases a run's env.json holds, as ``Phase`` objects."""
    return [Phase(**phase) for phase in env.get("phases") or []]


def failed(phase: Phase) -> str:
    return " FAILED" if phase.failed else ""


def duration(seconds: float) -> str:
    """``47 min 3 s``, ``12.4 s``: minutes once past two of them."""
    if seconds < 120:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60} s"
