"""The driver catalogue: which drivers exist and how to start each one.

Every language registers its drivers in ``catalogue_<language>.py``; the
harness only sees ``DriverSpec`` objects, so it runs a C++ binary, a Python
module and a JVM-hosted Java class the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DriverSpec:
    """One driver: its stable id and how to start it.

    ``command`` returns the program and its own leading arguments; the harness
    appends the contract options (``--models``, ``--calls``, ...).
    ``available`` returns ``None`` when the driver can run here, otherwise the
    reason it cannot, which becomes the ``skipped`` record's error.
    """

    id: str
    language: str
    runtime: str
    artifact: str
    command: Callable[[], Sequence[str]]
    available: Callable[[], str | None] = lambda: None
    # Wall-clock limit for one driver process, in seconds per million calls
    # and repeat, on top of a fixed allowance for start-up and loading.
    seconds_per_million: float = 300.0


REPO_ROOT = Path(__file__).resolve().parents[2]


def all_drivers() -> list[DriverSpec]:
    """Every registered driver, in catalogue order (Python, C++, Java)."""
    from callbench import catalogue_cpp, catalogue_java, catalogue_python

    drivers: list[DriverSpec] = []
    for module in (catalogue_python, catalogue_cpp, catalogue_java):
        drivers.extend(module.DRIVERS)
    return drivers


def select(drivers: Sequence[DriverSpec], only: Sequence[str] | None) -> list[DriverSpec]:
    """Drivers whose id equals, or starts with, one of ``only`` (all if empty)."""
    if not only:
        return list(drivers)
    chosen = [d for d in drivers if any(d.id == o or d.id.startswith(o + "-") for o in only)]
    return chosen
