"""``python -m callbench.report [RUN ...] [--out DIR]``: ``callbench report`` as a module
(cli/report.py says what it writes)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from callbench.cli.report import add_arguments, report
from callbench.errors import RunError

PROG = "callbench report"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="results/report.md from runs")
    add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        target = report(args.runs, args.out)
    except RunError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
