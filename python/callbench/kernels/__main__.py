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

# Nothing here may import NumPy before ``thread_env`` has run.
from callbench.kernels.launch import add_arguments
from callbench.kernels.threads import thread_env


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="callbench kernels",
        description="The seeds' micro-benchmarks (elementwise math, batched dot, CUDA).",
    )
    add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    thread_env(args.threads)
    from callbench.kernels.cli import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
