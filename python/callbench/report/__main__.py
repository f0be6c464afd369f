"""``python -m callbench.report [RUN_DIR ...]``: results/report.md and charts.

Without arguments, the newest run under results/runs/. Runs from several
hosts are shown side by side; each run also gets its own section.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from callbench.artifacts import write_atomic
from callbench.records import RESULTS, RUNS, latest_run
from callbench.report import charts, tables
from callbench.report.load import Run, load

CHARTS = "charts"


def _kernel_section(run: Run) -> str | None:
    if not run.kernels:
        return None
    from callbench.kernels.report import kernel_section

    return kernel_section(run.kernels, run.env)


def render(runs: Sequence[Run], out: Path) -> str:
    chart_dir = out / CHARTS
    chart_dir.mkdir(parents=True, exist_ok=True)
    for old in chart_dir.glob("*.png"):
        old.unlink()
    first = runs[0]
    git = first.env.get("git", {})
    parts = [
        "# callbench report",
        "",
        f"Made from run{'s' if len(runs) > 1 else ''} "
        + ", ".join(f"`{r.name}` (host `{r.host}`, {r.env.get('cpu', '?')})" for r in runs)
        + f" at commit `{git.get('commit') or '?'}`"
        + (" with uncommitted changes" if git.get("dirty") else "")
        + ". Every time below counts only because the driver's outputs matched "
        "`reference.f32`; figures are medians of the repeats, with min and max. "
        "Absolute times hold for one machine; compare drivers by their ratios within a run. "
        "⚠ marks a driver whose repeats spread by more than 10%.",
    ]
    if len(runs) > 1:
        parts += ["", "## Hosts side by side", "", "median µs per call (× cpp-handwritten)",
                  "", tables.hosts_table(runs)]  # fmt: skip
    for run in runs:
        title = f" — {run.host}" if len(runs) > 1 else ""
        stem = f"{run.name}"
        chart = charts.per_call(run, chart_dir / f"{stem}-per-call.png")
        parts += [
            "", f"## Cost per call, one sample a call{title}", "",
            f"![per-call cost, log scale]({CHARTS}/{chart.name})", "",
            tables.driver_table(run),
            "", f"## The seed's table beside ours{title}", "", tables.seed_table(run),
        ]  # fmt: skip
        for kind, what in (("batch", "Batch-size sweep"), ("threads", "Thread sweep")):
            if kind in run.sweeps:
                path = charts.sweep(run, kind, chart_dir / f"{stem}-{kind}-sweep.png")
                parts += ["", f"## {what}{title}", ""]
                if path is not None:
                    parts += [f"![{what}]({CHARTS}/{path.name})", ""]
                parts.append(tables.sweep_table(run, kind))
        kernels = _kernel_section(run)
        if kernels:
            parts += ["", kernels]  # the section brings its own heading
        parts += ["", f"## Environment{title}", "", tables.environment(run)]
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="callbench.report", description=__doc__)
    parser.add_argument("runs", nargs="*", type=Path, help="run folders (default: the newest)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where report.md goes")
    args = parser.parse_args(argv)
    paths = list(args.runs)
    if not paths:
        newest = latest_run(RUNS)
        if newest is None:
            print(f"callbench.report: error: no runs under {RUNS}; run `nox -s bench` first",
                  file=sys.stderr)  # fmt: skip
            return 1
        paths = [newest]
    for path in paths:
        if not (path / "env.json").is_file():
            print(f"callbench.report: error: {path}: not a run folder (no env.json)",
                  file=sys.stderr)  # fmt: skip
            return 1
    runs = [load(p) for p in paths]
    text = render(runs, args.out)
    write_atomic(args.out / "report.md", text.encode())
    print(f"wrote {args.out / 'report.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
