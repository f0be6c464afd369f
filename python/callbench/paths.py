"""Where things live in the checkout: the one module every other may import."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
BUILD = REPO_ROOT / "build"
RESULTS = REPO_ROOT / "results"
RUNS = RESULTS / "runs"
# The newest report a bench or `callbench report` wrote: ignored by git, so running the
# suite leaves the committed results/report.md (written only by `report --publish`) alone.
LATEST = RESULTS / "latest"
DOCS = REPO_ROOT / "docs"
