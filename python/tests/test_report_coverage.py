"""A registered driver without a record in the report's run is named, with why: added
after the run's commit, or registered then and not selected."""

from __future__ import annotations

import subprocess
from pathlib import Path

from callbench.paths import REPO_ROOT
from callbench.records.store import load_run
from callbench.registry import DRIVERS
from callbench.report.sections import coverage
from tests.test_report import ENV, driver, make_run, report

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_missing_drivers_are_split_into_added_later_and_not_selected(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "run", [driver("python-numpy", [5000, 5100])],
                            {**ENV, "git": {"commit": COMMIT, "dirty": False}}))  # fmt: skip
    then = '    python.driver("python-numpy", ...),\n    cpp.driver("cpp-handwritten"),\n'
    line = coverage.not_in_run(run, lambda commit: then if commit == COMMIT else None)
    assert line is not None and line.startswith("Not in this run: ")
    added, selected = line.removeprefix("Not in this run: ").split("; ")
    assert selected == "`cpp-handwritten`: registered at that commit, not selected for this run."
    # More than ten ids in a paragraph become their count.
    assert added == f"{len(DRIVERS) - 2} drivers: added after `0123456`, the run's commit"


def test_ten_missing_drivers_or_fewer_are_named(tmp_path: Path) -> None:
    missing = [s.id for s in DRIVERS[:3]]
    run = load_run(make_run(tmp_path / "run", [driver(s.id, [1000]) for s in DRIVERS[3:]],
                            {**ENV, "git": {"commit": COMMIT, "dirty": False}}))  # fmt: skip
    line = coverage.not_in_run(run, lambda commit: "")
    assert line == (f"Not in this run: {', '.join(f'`{i}`' for i in missing)}: added after "
                    "`0123456`, the run's commit.")  # fmt: skip


def test_a_run_of_every_driver_names_none(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "run", [driver(s.id, [1000]) for s in DRIVERS]))
    assert coverage.not_in_run(run, lambda commit: "") is None


def test_without_the_runs_commit_the_line_says_so(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "run", [driver("python-numpy", [5000])],
                            {**ENV, "git": {"commit": COMMIT, "dirty": False}}))  # fmt: skip
    line = coverage.not_in_run(run, lambda commit: None)
    assert line is not None and "the run's commit `0123456` cannot be read" in line


def test_the_registry_is_read_from_git_at_a_commit() -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    text = coverage.registry_at(head)
    assert text is not None and '"python-numpy"' in text
    assert coverage.registry_at("0" * 40) is None


def test_the_report_says_which_drivers_the_run_lacks(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [driver("python-numpy", [5000, 5100, 5050])])
    text = report(tmp_path, run)
    assert f"Not in this run: {len(DRIVERS) - 1} drivers" in text
