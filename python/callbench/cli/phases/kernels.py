"""bench's kernels phase: the seeds' micro-benchmarks into the run."""

from __future__ import annotations

import sys
from pathlib import Path

from callbench.records.phases import Phases


def kernels(run_dir: Path, quick: bool, threads: int, phases: Phases) -> None:
    """The kernels into ``run_dir``; their failure is said and the report goes on."""
    from callbench.kernels.launch import KernelOptions, run_kernels

    with phases.timed("kernels"):
        status = run_kernels(KernelOptions(run_dir, quick, threads))
    if status != 0:
        print("callbench: the kernels failed; the report goes on without them", file=sys.stderr)
