"""The machine's state around a run: which CPUs drivers get, steal time, load, governor."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# /proc/stat counts in USER_HZ ticks.
NS_PER_TICK = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def usable_cpus() -> list[int]:
    return sorted(os.sched_getaffinity(0))


def driver_cpus(threads: int, pin: bool) -> set[int] | None:
    """The CPUs a driver of ``threads`` threads is pinned to; None when not pinning.

    The last CPUs go to the driver and the harness keeps the first, so the
    harness never runs on the driver's core while it waits.
    """
    cpus = usable_cpus()
    if not pin or len(cpus) < 2:
        return None
    return set(cpus[-threads:]) if threads < len(cpus) else set(cpus)


def _threads(pid: int) -> list[int]:
    return [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]


def pin_process(pid: int, cpus: set[int]) -> None:
    """Pin every thread a process has (the runtime's pools included) to ``cpus``."""
    for tid in _threads(pid):
        try:
            os.sched_setaffinity(tid, cpus)
        except (ProcessLookupError, ValueError):
            continue  # a thread that ended meanwhile


def threads_off(pid: int, cpus: set[int]) -> int:
    """How many of a process's threads may run outside ``cpus``: a runtime that sets its
    own threads' affinity (OpenVINO's CPU pinning does, on every inference) undoes ours."""
    off = 0
    for tid in _threads(pid):
        try:
            off += not os.sched_getaffinity(tid) <= cpus
        except (ProcessLookupError, ValueError):
            continue  # a thread that ended meanwhile
    return off


def harness_cpus(driver: set[int] | None) -> set[int] | None:
    if driver is None:
        return None
    rest = set(usable_cpus()) - driver
    return rest or None


def steal_ns(cpus: set[int] | None) -> int | None:
    """Steal time so far on ``cpus`` (all CPUs when None), or None where /proc/stat has none."""
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return None
    total = 0
    for line in lines:
        name, *fields = line.split()
        if not name.startswith("cpu") or len(fields) < 8:
            continue
        if cpus is None and name == "cpu":
            return int(fields[7]) * NS_PER_TICK
        if cpus is not None and name[3:].isdigit() and int(name[3:]) in cpus:
            total += int(fields[7])
    return total * NS_PER_TICK if cpus is not None else None


def governor() -> str | None:
    path = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    try:
        return path.read_text().strip()
    except OSError:
        return None


def state() -> dict[str, Any]:
    """What can change during a run: load average and total steal time."""
    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {"loadavg": load, "steal_ns": steal_ns(None)}
