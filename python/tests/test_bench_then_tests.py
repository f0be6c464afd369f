"""The README's two commands in its order: a bench, then the tests that read the documents
and the committed runs, in a copy of the tree. The bench writes nothing git tracks, so the
tests still pass and ``git status --porcelain`` stays empty."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from callbench.paths import REPO_ROOT

# The tests that read the working tree's documents and runs: the README's quoted runs,
# the generated blocks.
READERS = ("python/tests/test_quoted_runs.py", "python/tests/test_readme_blocks.py")


def git(tree: Path, *args: str) -> str:
    who = ["-c", "user.name=callbench", "-c", "user.email=tests@callbench.invalid"]
    done = subprocess.run(["git", *who, *args], cwd=tree, check=True, capture_output=True,
                          text=True)  # fmt: skip
    return done.stdout


def copy_of_tree(to: Path) -> Path:
    """Every file git tracks here, as it is in the working tree (an uncommitted edit too),
    committed into a repository of its own at ``to``."""
    listed = git(REPO_ROOT, "ls-files", "-z").split("\0")
    for name in filter(None, listed):
        source = REPO_ROOT / name
        if source.is_file():  # a file deleted but not yet committed stays deleted
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    git(to, "init", "-q")
    git(to, "add", "-A", "-f")
    git(to, "commit", "-q", "-m", "the tree as it is")
    return to


def test_a_bench_then_the_tests_pass_and_leave_the_checkout_clean(
    small_models: Path, tmp_path: Path
) -> None:
    tree = copy_of_tree(tmp_path / "tree")
    assert git(tree, "status", "--porcelain") == ""
    # The copy's own code, and no nox environment's seconds (this is not a nox session).
    env = {k: v for k, v in os.environ.items() if k != "CALLBENCH_VENV_SECONDS"}
    env["PYTHONPATH"] = str(tree / "python")
    # One driver that no sweep takes: a sweep wants more samples than the small set holds.
    bench = subprocess.run(
        [sys.executable, "-m", "callbench.cli", "bench", "--quick", "--no-build",
         "--only", "python-eager-seed", "--models", str(small_models), "--run-id", "users-first"],
        cwd=tree, capture_output=True, text=True, timeout=900, check=False,
        env=env,
    )  # fmt: skip
    assert bench.returncode == 0, bench.stderr[-2000:]
    run_dir = tree / "results" / "runs" / "users-first"
    assert (run_dir / "report.md").is_file()
    assert (tree / "results" / "latest" / "report.md").read_bytes() == (
        run_dir / "report.md"
    ).read_bytes()
    assert git(tree, "status", "--porcelain") == ""
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *READERS],
        cwd=tree, capture_output=True, text=True, timeout=900, check=False,
        env=env,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert git(tree, "status", "--porcelain") == ""
