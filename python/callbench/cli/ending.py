"""How a command that runs drivers ends: its summary table and records folder, or one line
for a run stopped by Ctrl-C or a signal (the exit status says which)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from callbench.harness import console
from callbench.records.record import Record


def finish(records: list[Record], run_dir: Path) -> None:
    """The run's summary table and where its records are."""
    print()
    print(console.summary(records))
    print(f"\nrecords: {run_dir}")


def stopped(stop: KeyboardInterrupt, run_dir: Path | None) -> int:
    """One line for a run ended by Ctrl-C or a signal; the exit status says which."""
    name = getattr(stop, "name", "SIGINT")
    where = f"; records kept in {run_dir}" if run_dir is not None else ""
    print(f"callbench: stopped by {name}{where}", file=sys.stderr)
    return 128 + int(getattr(signal.Signals, name, signal.SIGINT))
