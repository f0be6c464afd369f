"""bench's ladder phase: the Python call ladder (``callbench profile --ladder``) into the run."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from callbench.errors import named_first_line
from callbench.harness.options import RunOptions


def ladder(args: argparse.Namespace, options: RunOptions, run_dir: Path) -> None:
    """The Python call ladder into the run; its failure is said and the report goes on."""
    from callbench.cli.profile import LADDER_CALLS, LADDER_ROUNDS, QUICK_LADDER_CALLS, run_ladder

    calls = QUICK_LADDER_CALLS if args.quick else LADDER_CALLS
    ladder = replace(options, calls=calls, rounds=LADDER_ROUNDS, batch=1, threads=1)
    try:
        run_ladder(ladder, run_dir)
    except Exception as exc:  # a runtime's own failure: the report goes on
        print(f"callbench: the ladder failed ({named_first_line(exc)}); the report goes on "
              "without it", file=sys.stderr)  # fmt: skip
