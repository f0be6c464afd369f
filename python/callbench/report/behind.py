"""How far a run's commit is behind the code it measured: the commits since it that changed a
driver or a driver kit. ``callbench report`` warns (one line) when there are any."""

from __future__ import annotations

import subprocess

from callbench.paths import REPO_ROOT
from callbench.records.store import Run

# Where drivers and kits live, in every language: what a run's figures depend on.
DRIVER_AND_KIT_PATHS = (
    "python/callbench/drivers",
    "python/callbench/driverkit",
    "python/callbench/independent",
    "python/callbench/registry.py",
    "cpp/common",
    "cpp/drivers",
    "java/src/main",
    "java/ffm/src/main",
    "java/native",
    "rust/kit",
    "rust/drivers",
    "rust/burn",
    "go/kit",
    "go/cmd",
    "go/ortsupport",
    "node/kit",
    "node/drivers",
    "node/ortsupport",
)


def commits_since(commit: str) -> int | None:
    """Commits after ``commit`` up to HEAD that touch a driver or kit; None where git cannot
    say (not a checkout, or a commit it does not hold)."""
    try:
        found = subprocess.run(
            ["git", "rev-list", "--count", f"{commit}..HEAD", "--", *DRIVER_AND_KIT_PATHS],
            cwd=REPO_ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    return int(found.stdout.strip() or 0)


def warning(run: Run) -> str | None:
    """One line when the run's commit is older than the last driver or kit change."""
    commit = str((run.env.get("git") or {}).get("commit") or "")
    if not commit:
        return None
    behind = commits_since(commit)
    if not behind:
        return None
    return (f"callbench report: warning: run {run.name} was made at {commit[:7]}; {behind} "
            f"commit(s) since changed a driver or a kit")  # fmt: skip
