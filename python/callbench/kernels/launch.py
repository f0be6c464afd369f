"""The kernels as callers start them: typed options, run in a process of their own.

A process of their own because BLAS and OpenMP read their thread counts when
NumPy first loads, and the caller (``callbench bench``) has loaded it already.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MODULE = "callbench.kernels"


@dataclass(frozen=True)
class KernelOptions:
    run_dir: Path | None = None  # None: a new run folder under results/runs
    quick: bool = False  # elementwise at 1000 x 1000
    threads: int = 1

    def arguments(self) -> list[str]:
        args = ["--threads", str(self.threads)]
        if self.run_dir is not None:
            args += ["--run-dir", str(self.run_dir)]
        if self.quick:
            args.append("--quick")
        return args


def run_kernels(options: KernelOptions) -> int:
    """Every kernel into a run folder; the exit status of the kernels' process."""
    return run_kernels_with(options.arguments())


def run_kernels_with(argv: Sequence[str]) -> int:
    """``callbench kernels ARGS``: the kernels' own command line, in their own process."""
    return subprocess.run([sys.executable, "-m", MODULE, *argv], check=False).returncode
