"""The package's layers, as the README's "Layout" names them: every import of a callbench
module goes to its own layer or one before it, never back up (the kit and the harness both
sit above the options, errors and signature reading they share)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from callbench.paths import REPO_ROOT

PACKAGE = REPO_ROOT / "python" / "callbench"


def layers() -> dict[str, int]:
    """Each top-level module or package of callbench, by its layer's rank in the README."""
    text = (REPO_ROOT / "README.md").read_text()
    found = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", text, re.DOTALL)
    assert found, "README.md has no <!-- layers --> line in its Layout"
    return {name.strip(): rank
            for rank, group in enumerate(found[1].split(">"))
            for name in group.split(",")}  # fmt: skip


def imports(path: Path) -> list[tuple[int, str]]:
    """The callbench modules ``path`` imports, anywhere in it, with their lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return [(line, m) for line, m in found if m.split(".")[0] == "callbench"]


def top(module: str) -> str | None:
    """``callbench.<top>...``'s top-level name; None for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def climbs(rank: dict[str, int]) -> list[str]:
    """Every import that goes to a later layer, as ``file:line: a > b``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = top(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        if me is None or me == "__init__":
            continue
        for line, module in imports(path):
            to = top(module)
            if to is not None and rank[to] > rank[me]:
                found.append(f"{path.relative_to(REPO_ROOT)}:{line}: {me} > {to}")
    return found


def test_every_top_level_module_has_its_layer() -> None:
    names = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" or (p / "__init__.py").is_file()) and p.stem != "__init__"
    }
    assert names == set(layers())


def test_no_import_climbs_back_up_the_layers() -> None:
    assert climbs(layers()) == []


def test_the_check_sees_a_climb() -> None:
    """Were the kit below the options it parses, its import of them would climb."""
    below = {**layers(), "driverkit": -1}
    assert any(c.endswith(": driverkit > driver_options") for c in climbs(below))
