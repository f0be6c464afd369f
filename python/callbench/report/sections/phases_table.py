"""The report's "Where the bench's time went": each phase env.json recorded, in order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callbench.records.phases import duration

TITLE = "Where the bench's time went"


def section(env: Mapping[str, Any]) -> str:
    """A table of the run's phases and their whole; empty for a run made before phases were
    recorded (or by a command that records none)."""
    phases = env.get("phases") or []
    if not phases:
        return ""
    rows = ["| Phase | Took | How it began |", "| --- | ---: | --- |"]
    for phase in phases:
        name = phase["phase"] + (f" {phase['language']}" if phase.get("language") else "")
        failed = " (failed)" if phase.get("failed") else ""
        rows.append(f"| {name}{failed} | {duration(phase['seconds'])} | {phase.get('build', '')} |")
    total = sum(p["seconds"] for p in phases)
    rows.append(f"| all | {duration(total)} | |")
    builds = [p for p in phases if p["phase"] == "build"]
    said = (
        "A build is cold when none of the folders it reuses were there (its build folder, and "
        "Cargo's and Go's caches, which every clone on a machine shares), cached otherwise. "
    )
    intro = (
        f"Each phase of the command that made this run, from its env.json. {said if builds else ''}"
    )
    return "\n".join(
        [intro + "A bench's report adds its own seconds once it is written.", "", *rows]
    )
