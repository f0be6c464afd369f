"""Which registered drivers a run lacks, said in the report rather than left out silently:
those registered after the run's commit, and those it did not select."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

from callbench.paths import REPO_ROOT
from callbench.records.store import Run
from callbench.registry import DRIVERS
from callbench.report.blocks.format import driver_ids

REGISTRY = "python/callbench/registry.py"


def registry_at(commit: str) -> str | None:
    """The registry's text at ``commit``, or None where git cannot read it (no history)."""
    try:
        shown = subprocess.run(["git", "show", f"{commit}:{REGISTRY}"], cwd=REPO_ROOT,
                               capture_output=True, text=True, check=False, timeout=30)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return shown.stdout if shown.returncode == 0 else None


def _ids(ids: Sequence[str]) -> str:
    return driver_ids(ids)


def not_in_run(run: Run, read_registry: Callable[[str], str | None] = registry_at) -> str | None:
    """One line naming each registered driver without a record in ``run``, and why; None
    when the run has them all."""
    have = {r.id for r in run.drivers}
    missing = [s.id for s in DRIVERS if s.id not in have]
    if not missing:
        return None
    commit = str((run.env.get("git") or {}).get("commit") or "")
    then = read_registry(commit) if commit else None
    if then is None:
        return (f"Not in this run: {_ids(missing)} (registered now; the run's commit "
                f"`{commit[:7] or '?'}` cannot be read to say when they were added).")  # fmt: skip
    added = [d for d in missing if f'"{d}"' not in then]
    left = [d for d in missing if d not in added]
    parts = []
    if added:
        parts.append(f"{_ids(added)}: added after `{commit[:7]}`, the run's commit")
    if left:
        parts.append(f"{_ids(left)}: registered at that commit, not selected for this run")
    return "Not in this run: " + "; ".join(parts) + "."
