"""``callbench report [RUN ...] [--out DIR | --publish]``: report.md, its charts, and
figures.csv (every row's figures).

RUN is a run folder or a run id under results/runs/; without one, the newest run. The report
goes to results/latest/ (ignored by git), or DIR; only ``--publish`` writes the project's
committed results/report.md, the step a final run's commit takes, so that running a bench
and then the tests leaves the checkout as it was. Runs from several hosts are shown side by
side, and each run also gets its own sections. A run made before the last commit that
changed a driver or a kit gets a one-line warning on stderr. ``--readme [FILE]`` writes
README.md's generated blocks again from the runs each names instead (report.readme). Exit 1,
with one line naming the file, when a run cannot be read (for example a record of another
schema version).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from callbench.errors import RunError
from callbench.paths import LATEST, REPO_ROOT, RESULTS, RUNS

README = REPO_ROOT / "README.md"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="*", help="run folders or run ids (default: the newest run)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where report.md, figures.csv and charts/ go (default: "
        "results/latest/, which git ignores)",
    )
    where.add_argument("--publish", action="store_true",
                       help="write the project's committed report, results/report.md "
                       "(and its figures.csv and charts/), instead")  # fmt: skip
    p.add_argument("--readme", type=Path, nargs="?", const=README, default=None, metavar="FILE",
                   help="write the generated blocks of FILE (README.md) from their runs, "
                   "and nothing else")  # fmt: skip


def report(names: Sequence[str], out: Path) -> Path:
    """Read the runs through the one loader, write report.md; RunError on any problem."""
    # Imported here: callbench builds every command's parser on each call.
    from callbench.files import write_atomic
    from callbench.records.store import find_run, latest_run, load_run
    from callbench.report import behind
    from callbench.report.blocks import figures_csv
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


# What a report folder holds: report.md, figures.csv and charts/.
REPORT_FILES = ("report.md", "figures.csv")


def as_latest(run_dir: Path) -> Path:
    """A copy of the report in ``run_dir`` (the run's own) as ``latest/`` beside its runs
    folder (results/latest/ for results/runs/), the one before it removed; RunError when it
    cannot be written."""
    from callbench.report.document import CHARTS

    latest = run_dir.resolve().parent.parent / LATEST.name
    try:
        shutil.rmtree(latest, ignore_errors=True)
        (latest / CHARTS).mkdir(parents=True)
        for name in REPORT_FILES:
            shutil.copy2(run_dir / name, latest / name)
        for chart in (run_dir / CHARTS).glob("*.png"):
            shutil.copy2(chart, latest / CHARTS / chart.name)
    except OSError as exc:
        raise RunError(f"{exc.filename or latest}: cannot write: {exc.strerror or exc}") from None
    return latest / "report.md"


def main(args: argparse.Namespace) -> int:
    if args.readme is not None:
        from callbench.report.readme import write_readme

        changed = write_readme(args.readme)
        print(f"{'wrote' if changed else 'unchanged:'} {args.readme}")
        return 0
    if args.publish:
        out = RESULTS
    elif args.out is not None:
        out = args.out
    else:  # the newest report only, not the charts of every report before it
        shutil.rmtree(LATEST, ignore_errors=True)
        out = LATEST
    print(f"wrote {report(args.runs, out)}")
    return 0
