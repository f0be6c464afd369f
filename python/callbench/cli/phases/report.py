"""bench's last phase: the run's report in its own folder."""

from __future__ import annotations

from pathlib import Path


def write_report(run_dir: Path) -> int:
    """The run's report in its own folder (report.md, charts/, figures.csv), copied to
    results/latest/; the project's committed results/report.md is left alone."""
    from callbench.cli.report import as_latest, report

    print(f"wrote {report([str(run_dir)], run_dir)}, copied to {as_latest(run_dir)}")
    return 0
