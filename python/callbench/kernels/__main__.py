"""``callbench kernels``: run the seeds' micro-benchmarks and write records.

    callbench kernels --quick                 # 1000 x 1000, a minute or so
    callbench kernels --only kernel-exp --threads 4
    callbench kernels --run-dir results/runs/<id>   # beside a driver run

Exit 0 when every record was written (some may say failed or skipped),
2 for a usage error, 1 when the run itself could not be done.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

# Nothing here may import NumPy before ``thread_env`` has run.
from callbench.command_line import count, number
from callbench.kernels.threads import thread_env


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="callbench kernels",
        description="The seeds' micro-benchmarks (elementwise math, batched dot, CUDA).",
    )
    p.add_argument("--quick", action="store_true", help="elementwise at 1000 x 1000 (CI, tests)")
    p.add_argument("--size", type=count(1), help="elementwise side N (N x N); default 10000")
    p.add_argument("--repeats", type=count(1), default=5, help="timed repeats (default 5)")
    p.add_argument("--threads", type=count(1), default=1, help="threads per library (default 1)")
    p.add_argument(
        "--min-repeat-time",
        type=number(at_least=0, at_most=60),
        default=0.2,
        metavar="SECONDS",
        help="calls per repeat are chosen so a repeat lasts at least this long (default 0.2)",
    )
    p.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="kernel ids or prefixes, e.g. kernel-exp"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--runs-dir", type=Path, help="make a new run folder here")
    where.add_argument("--run-dir", type=Path, help="write into this run folder (may exist)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    thread_env(args.threads)
    from callbench.kernels.cli import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
