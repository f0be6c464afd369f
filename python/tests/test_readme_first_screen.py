"""The README answers the question on its first screen (its first 50 lines): a table
with one row per language, and the batch lever."""

from __future__ import annotations

from callbench.paths import REPO_ROOT
from callbench.registry import LANGUAGES

SCREEN = 50
# The registry's language keys as the records name them.
NAMES = {"python": "Python", "cpp": "C++", "java": "Java", "rust": "Rust", "go": "Go",
         "node": "Node.js"}  # fmt: skip


def first_screen() -> list[str]:
    return (REPO_ROOT / "README.md").read_text().splitlines()[:SCREEN]


def table_rows(lines: list[str], header_holds: str) -> list[list[str]]:
    """The cells of each row of the first table whose header holds ``header_holds``."""
    start = next(i for i, line in enumerate(lines) if line.startswith("|") and header_holds in line)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_the_first_screen_has_one_row_per_language() -> None:
    rows = table_rows(first_screen(), "cheapest way to call")
    assert sorted(row[0] for row in rows) == sorted(NAMES[key] for key in LANGUAGES)
    assert all(row[1].startswith("`") and "handwritten" not in row[1] for row in rows)


def test_the_first_screen_has_the_batch_lever() -> None:
    rows = table_rows(first_screen(), "batch 10,000")
    assert len(rows) == len(LANGUAGES)
    assert all(float(row[2]) > float(row[4]) for row in rows)  # per sample: batch 1 > 10,000


def test_the_first_screen_has_the_served_answer_per_language() -> None:
    # Per language the way that serves the most within the bound, its rate with an interval,
    # its rate over one caller's, and what decides; the bound named above the table.
    lines = first_screen()
    rows = table_rows(lines, "best way within the bound")
    assert sorted(row[0] for row in rows) == sorted(NAMES[key] for key in LANGUAGES)
    assert all("`" in row[1] and "[" in row[2] and row[5] for row in rows)
    assert any("p99 within **" in line for line in lines)
