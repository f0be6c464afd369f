"""bench's and run's first phase: every chosen driver, timed in interleaved rounds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from callbench.harness.options import RunOptions
from callbench.harness.run import run_group
from callbench.languages.spec import DriverSpec
from callbench.records.phases import Phases
from callbench.records.record import Record


def measure(
    specs: Sequence[DriverSpec], options: RunOptions, run_dir: Path, phases: Phases
) -> list[Record]:
    """Every chosen driver into ``run_dir``: their records."""
    with phases.timed("measure"):
        return run_group(specs, options, run_dir)
