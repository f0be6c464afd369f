"""Where things live in the checkout: the one module every other may import."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
BUILD = REPO_ROOT / "build"
RESULTS = REPO_ROOT / "results"
RUNS = RESULTS / "runs"
DOCS = REPO_ROOT / "docs"
