"""The result line, and the process's own peak memory that it reports."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from callbench.driver_options import Options
from callbench.driverkit.rounds import Round


def peak_rss_bytes(status: Path = Path("/proc/self/status")) -> int | None:
    """VmHWM: this process's peak resident memory, None where it cannot be read."""
    try:
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def result_line(
    driver_id: str,
    options: Options,
    runtime_version: str,
    load_ns: int,
    rounds: Sequence[Round],
    notes: dict[str, Any],
) -> dict[str, Any]:
    echo = {"callers": options.callers} if options.callers > 1 else {}  # contract 4
    return {
        "driver": driver_id,
        "calls": options.calls,
        "batch": options.batch,
        "threads": options.threads,
        **echo,
        "runtime_version": runtime_version,
        "load_ns": load_ns,
        "peak_rss_bytes": peak_rss_bytes(),
        "rounds": [r.to_json() for r in rounds],
        "notes": notes,
    }
