"""``callbench report [RUN ...] [--out DIR]``: results/report.md, its charts, and figures.csv
(every row's figures).

RUN is a run folder or a run id under results/runs/; without one, the newest
run. Runs from several hosts are shown side by side, and each run also gets
its own sections. A run made before the last commit that changed a driver or a kit gets a
one-line warning on stderr. ``--readme [FILE]`` writes README.md's generated blocks again
from the runs each names instead (report.readme). Exit 1, with one line naming the file,
when a run cannot be read (for example a record of another schema version).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from callbench.errors import RunError
from callbench.paths import REPO_ROOT, RESULTS, RUNS

README = REPO_ROOT / "README.md"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="*", help="run folders or run ids (default: the newest run)")
    p.add_argument("--out", type=Path, default=RESULTS, help="where report.md and charts/ go")
    p.add_argument("--readme", type=Path, nargs="?", const=README, default=None, metavar="FILE",
                   help="write the generated blocks of FILE (README.md) from their runs, "
                   "and nothing else")  # fmt: skip


def report(names: Sequence[str], out: Path) -> Path:
    """Read the runs through the one loader, write report.md; RunError on any problem."""
    # Imported here: callbench builds every command's parser on each call.
    from callbench.files import write_atomic
    from callbench.records.store import find_run, latest_run, load_run
    from callbench.report import behind, figures_csv
    from callbench.report.document import render

    if names:
        paths = [find_run(name, RUNS) for name in names]
    else:
        newest = latest_run(RUNS)
        if newest is None:
            raise RunError(f"no runs under {RUNS}; run `callbench bench` first")
        paths = [newest]
    runs = [load_run(path) for path in paths]
    for run in runs:
        said = behind.warning(run)
        if said:
            print(said, file=sys.stderr)
    target = out / "report.md"
    try:
        write_atomic(target, render(runs, out).encode())
        write_atomic(out / figures_csv.NAME, figures_csv.figures_csv(runs).encode())
    except OSError as exc:
        raise RunError(f"{exc.filename or target}: cannot write: {exc.strerror or exc}") from None
    return target


def main(args: argparse.Namespace) -> int:
    if args.readme is not None:
        from callbench.report.readme import write_readme

        changed = write_readme(args.readme)
        print(f"{'wrote' if changed else 'unchanged:'} {args.readme}")
        return 0
    print(f"wrote {report(args.runs, args.out)}")
    return 0
