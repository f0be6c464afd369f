"""The kernels as callers start them: typed options, run in a process of their own.

A process of their own because BLAS and OpenMP read their thread counts when
NumPy first loads, and the caller (``callbench bench``) has loaded it already.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Nothing here may import NumPy: ``python -m callbench.kernels`` sets its threads first.
from callbench.command_line import count, number

MODULE = "callbench.kernels"


@dataclass(frozen=True)
class KernelOptions:
    run_dir: Path | None = None  # None: a new run folder under runs_dir
    quick: bool = False  # elementwise at 1000 x 1000
    threads: int = 1
    size: int | None = None  # elementwise side N (N x N); None: 10000, or 1000 with quick
    repeats: int = 5
    min_repeat_time: float = 0.2
    only: tuple[str, ...] = ()
    runs_dir: Path | None = None  # None: results/runs

    @classmethod
    def of(cls, args: argparse.Namespace) -> KernelOptions:
        return cls(args.run_dir, args.quick, args.threads, args.size, args.repeats,
                   args.min_repeat_time, tuple(args.only or ()), args.runs_dir)  # fmt: skip

    def arguments(self) -> list[str]:
        """These options as the kernels' command line."""
        args = ["--threads", str(self.threads), "--repeats", str(self.repeats),
                "--min-repeat-time", str(self.min_repeat_time)]  # fmt: skip
        for flag, value in (("--size", self.size), ("--run-dir", self.run_dir),
                            ("--runs-dir", self.runs_dir)):  # fmt: skip
            if value is not None:
                args += [flag, str(value)]
        if self.only:
            args += ["--only", *self.only]
        if self.quick:
            args.append("--quick")
        return args


def add_arguments(p: argparse.ArgumentParser) -> None:
    defaults = KernelOptions()
    p.add_argument("--quick", action="store_true", help="elementwise at 1000 x 1000 (CI, tests)")
    p.add_argument("--size", type=count(1), help="elementwise side N (N x N); default 10000")
    p.add_argument("--repeats", type=count(1), default=defaults.repeats,
                   help=f"timed repeats (default {defaults.repeats})")  # fmt: skip
    p.add_argument("--threads", type=count(1), default=defaults.threads,
                   help=f"threads per library (default {defaults.threads})")  # fmt: skip
    p.add_argument(
        "--min-repeat-time", type=number(at_least=0, at_most=60),
        default=defaults.min_repeat_time, metavar="SECONDS",
        help="calls per repeat are chosen so a repeat lasts at least this long "
        f"(default {defaults.min_repeat_time})",
    )  # fmt: skip
    p.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="kernel ids or prefixes, e.g. kernel-exp"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--runs-dir", type=Path, help="make a new run folder here")
    where.add_argument("--run-dir", type=Path, help="write into this run folder (may exist)")


def run_kernels(options: KernelOptions) -> int:
    """Every kernel asked for, into a run folder; the exit status of the kernels' process."""
    return subprocess.run([sys.executable, "-m", MODULE, *options.arguments()],
                          check=False).returncode  # fmt: skip


def main(args: argparse.Namespace) -> int:
    """``callbench kernels``."""
    return run_kernels(KernelOptions.of(args))
