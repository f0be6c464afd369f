"""README.md's figures are generated: every block is what `callbench report --readme` writes
from the committed runs it names, a one-character edit inside any block is caught, and no
measured figure sits outside the blocks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from callbench.errors import RunError
from callbench.paths import REPO_ROOT
from callbench.records.store import Run
from callbench.report import readme

README = REPO_ROOT / "README.md"


def test_every_block_is_what_its_runs_write() -> None:
    text = README.read_text()
    assert readme.blocks(text, README), "README.md has no generated blocks"
    fresh = readme.rewrite(text, README)
    assert fresh == text, "README.md's blocks differ from their runs: `callbench report --readme`"


def _edited(text: str, block: readme.Block) -> str:
    """``text`` with one character changed inside ``block``'s body: a digit where there is
    one, else the body's first character."""
    body = block.body
    at = next((i for i, c in enumerate(body) if c.isdigit()), 0)
    swap = "7" if body[at] != "7" else "8"
    return text[: block.start + at] + swap + text[block.start + at + 1 :]


def test_a_one_character_edit_inside_any_block_is_caught() -> None:
    text = README.read_text()
    loaded: dict[str, Run] = {}  # read once, not once a block
    for block in readme.blocks(text, README):
        edited = _edited(text, block)
        assert edited != text
        fresh = readme.rewrite(edited, README, loaded=loaded)
        assert fresh == text, f"an edit of {block.kind} survived"


def test_no_measured_figure_outside_the_blocks() -> None:
    outside = readme.figures_outside(README.read_text())
    assert not outside, "README.md quotes figures no run writes: " + "; ".join(
        f"line {n}: {line[:80]}" for n, line in outside
    )


def test_the_check_finds_a_figure_outside_and_leaves_settings_alone() -> None:
    text = "Rounds of about 0.05 s, 21 of them, 10% apart.\n"
    assert readme.figures_outside(text) == []
    assert readme.figures_outside(text + "It took 2.41 µs a call.\n") == [
        (2, "It took 2.41 µs a call.")
    ]
    assert readme.figures_outside("| row | 1.80 (1.78–1.87) |\n")
    assert not readme.figures_outside("| PyTorch 2.15.0 | PyPI |\n")
    inside = "<!-- callbench:answer run=X -->\n3.2× faster\n<!-- /callbench -->\n"
    assert readme.figures_outside(inside) == []


def _copy_with_block(tmp_path: Path, kind: str, run: str) -> Path:
    path = tmp_path / "README.md"
    path.write_text(
        f"# t\n\n<!-- callbench:{kind} run={run} -->\nSTALE BODY\n<!-- /callbench -->\n"
    )
    return path


def test_report_readme_writes_the_blocks_of_the_file_named(tmp_path: Path) -> None:
    run = next(b.runs[0] for b in readme.blocks(README.read_text(), README) if b.kind == "took")
    path = _copy_with_block(tmp_path, "took", run)
    done = subprocess.run(
        [sys.executable, "-m", "callbench.cli", "report", "--readme", str(path)],
        capture_output=True, text=True, cwd=REPO_ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = path.read_text()
    assert "STALE BODY" not in written and f"`{run}`" in written
    assert readme.rewrite(written, path) == written


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("<!-- callbench:nonsense run=X -->\nx\n<!-- /callbench -->\n", "unknown block"),
        ("<!-- callbench:answer run=no-such-run -->\nx\n<!-- /callbench -->\n", "no such run"),
        ("<!-- callbench:answer run=X -->\nx\n", "without its"),
    ],
)
def test_a_bad_block_is_one_line_naming_the_file(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "README.md"
    with pytest.raises(RunError, match=says) as raised:
        readme.rewrite(text, path)
    assert "\n" not in str(raised.value)
    if says != "no such run":
        assert str(path) in str(raised.value)
