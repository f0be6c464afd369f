"""`callbench report` warns, in one line, when a run's commit is older than the last commit
that changed a driver or a kit, naming how many such commits came since."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from callbench.paths import REPO_ROOT
from callbench.records.store import Run
from callbench.report import behind


def _run(commit: str) -> Run:
    return Run(Path("results/runs/20261129T000000Z-test-000000"), {"git": {"commit": commit}})


def _driver_commits() -> list[str]:
    """The two newest commits that changed a driver or a kit, newest first."""
    done = subprocess.run(
        ["git", "log", "-2", "--format=%H", "--", *behind.DRIVER_AND_KIT_PATHS],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return done.stdout.split()


def test_a_run_before_a_driver_change_gets_one_line_naming_how_many() -> None:
    found = _driver_commits()
    if len(found) < 2:
        pytest.skip("this clone holds fewer than two commits that changed a driver")
    older = found[1]
    said = behind.warning(_run(older))
    assert said is not None and "\n" not in said
    assert said.startswith("callbench report: warning: run 20261129T000000Z-test-000000")
    assert f"made at {older[:7]}; " in said
    assert f"; {behind.commits_since(older)} commit(s) since changed a driver or a kit" in said


def test_a_run_at_the_last_driver_change_gets_none() -> None:
    found = _driver_commits()
    if not found:
        pytest.skip("this clone holds no commit that changed a driver")
    assert behind.commits_since(found[0]) == 0
    assert behind.warning(_run(found[0])) is None


def test_a_commit_git_does_not_hold_or_none_recorded_gets_none() -> None:
    assert behind.warning(_run("0" * 40)) is None
    assert behind.warning(Run(Path("x"), {})) is None


def test_every_path_named_is_in_the_repository() -> None:
    assert all((REPO_ROOT / path).exists() for path in behind.DRIVER_AND_KIT_PATHS)
