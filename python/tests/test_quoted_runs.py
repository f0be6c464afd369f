"""Every run a document quotes is committed: a figure in the README (or another
README, or docs/) names a run that a fresh clone has under results/runs/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from callbench.paths import REPO_ROOT

# A run id: a UTC stamp, then a host and a short hash or a name (20261125T145625Z-vm-c19928).
RUN_ID = re.compile(r"\b20\d{6}T\d{4,6}Z-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
RUNS = Path("results") / "runs"
# The report names its charts' files after the run: a chart's path is not a run.
CHART = re.compile(r"charts/[^)\s]*")


def quoted_run_ids(text: str) -> set[str]:
    return set(RUN_ID.findall(CHART.sub("", text)))


def committed_runs(root: Path) -> set[str]:
    """The runs a fresh clone has: those git tracks under results/runs/."""
    listed = subprocess.run(["git", "ls-files", "--", str(RUNS)], cwd=root, check=True,
                            capture_output=True, text=True).stdout  # fmt: skip
    return {Path(line).parts[2] for line in listed.splitlines() if len(Path(line).parts) > 3}


def missing_runs(texts: dict[Path, str], committed: set[str]) -> list[str]:
    """Each quoted run that is not committed, as 'file: run id'."""
    return sorted(f"{path}: {run}" for path, text in texts.items()
                  for run in quoted_run_ids(text) - committed)  # fmt: skip


def documents(root: Path) -> dict[Path, str]:
    """Every tracked Markdown file outside results/runs/, the generated report too."""
    listed = subprocess.run(["git", "ls-files", "--", "*.md"], cwd=root, check=True,
                            capture_output=True, text=True).stdout  # fmt: skip
    paths = [Path(line) for line in listed.splitlines()]
    return {p: (root / p).read_text() for p in paths if RUNS not in p.parents}


def test_every_run_a_document_quotes_is_committed() -> None:
    texts = documents(REPO_ROOT)
    assert Path("README.md") in texts
    assert quoted_run_ids(texts[Path("README.md")]), "the README names its runs"
    assert missing_runs(texts, committed_runs(REPO_ROOT)) == []


def test_a_quoted_run_that_is_not_committed_is_named() -> None:
    committed = committed_runs(REPO_ROOT)
    assert "20261125T145625Z-vm-c19928" in committed
    text = ("the committed report (run `20261125T145625Z-vm-c19928`) and a run made by hand, "
            "`20261122T023733Z-vm-1bd003`, and `20261126T1225Z-count-newer-runtimes`")  # fmt: skip
    assert quoted_run_ids(text) == {"20261125T145625Z-vm-c19928", "20261122T023733Z-vm-1bd003",
                                    "20261126T1225Z-count-newer-runtimes"}  # fmt: skip
    assert missing_runs({Path("README.md"): text}, committed) == [
        "README.md: 20261122T023733Z-vm-1bd003"
    ]
