"""Ending a run cleanly on Ctrl-C, SIGTERM or SIGHUP, and when the parent dies.

``timeout``, ``kill`` and a cancelled CI job send SIGTERM to nox, which
exits without passing it on; the harness asks the kernel for a SIGTERM of its
own when its parent dies (PR_SET_PDEATHSIG), and turns SIGTERM and SIGHUP
into ``Stopped`` so the same clean-up as for Ctrl-C runs. Drivers get SIGKILL
when the harness dies, so none outlives it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
from types import FrameType

PR_SET_PDEATHSIG = 1


class Stopped(KeyboardInterrupt):
    """The run was asked to stop (a signal); handled as Ctrl-C is."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _raise(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signal.Signals(signum).name)


def die_with_parent(signum: int) -> None:
    """Ask Linux to send ``signum`` to this process when its parent exits (no-op elsewhere)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        return


def install() -> None:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does; a dying parent sends SIGTERM."""
    signal.signal(signal.SIGTERM, _raise)
    signal.signal(signal.SIGHUP, _raise)
    die_with_parent(signal.SIGTERM)
    if os.getppid() == 1:  # the parent died before we asked
        raise Stopped("SIGTERM")


def child_setup(cpus: set[int] | None) -> None:
    """Run in each driver process before exec: die with the harness, pin to ``cpus``."""
    die_with_parent(signal.SIGKILL)
    if cpus:
        os.sched_setaffinity(0, cpus)
