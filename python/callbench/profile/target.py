"""Which Python driver a profile takes, and how it is loaded: in this process, or as the
process py-spy starts; both through the Python language's door to its kit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from callbench.driver_options import Options
from callbench.errors import UsageError
from callbench.languages import python
from callbench.registry import DRIVERS

Loaded = python.Hosted


def python_drivers() -> dict[str, str]:
    """Driver id -> ``module:function`` of every registered Python driver."""
    return {d.id: d.entry for d in DRIVERS if d.entry is not None}


def entry_of(driver_id: str) -> str:
    entries = python_drivers()
    if driver_id not in entries:
        raise UsageError(
            f"{driver_id!r} is not a Python driver; profile takes one of: {', '.join(entries)}"
        )
    return entries[driver_id]


@contextmanager
def loaded(driver_id: str, options: Options) -> Iterator[Loaded]:
    """The driver loaded and warmed up in this process."""
    with python.hosted(driver_id, entry_of(driver_id), options) as driver:
        yield driver


def target_command(driver_id: str, options: Options, seconds: float) -> list[str]:
    """The process py-spy starts: the driver spinning for about ``seconds``."""
    return [sys.executable, "-m", python.HOST, driver_id, entry_of(driver_id),
            "--seconds", str(seconds), *options.arguments()]  # fmt: skip
