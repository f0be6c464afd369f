"""The package's layers, as the README's "Layout" names them: every import of a callbench
module goes to its own layer or one before it, never back up (the kit and the harness both
sit above the options, errors and signature reading they share). Beside them, rules of
their own: the harness, the report, the commands and the profiler reach a kit only through
the contract (never ``driverkit``); the harness's and the report's rooms import as their
``__init__`` says; and no module grows past ``MAX_LINES``."""

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


def module_of(path: Path, package: Path = PACKAGE) -> str:
    """``path``'s dotted module name (``callbench.harness.run``), ``package`` its top folder."""
    return ".".join(path.relative_to(package.parent).with_suffix("").parts)


def climbs(rank: dict[str, int]) -> list[str]:
    """Every import that goes to a later layer, as ``file:line: a > b``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = top(module_of(path))
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


# The parts above the kits: each drives a kit through the contract (its options, its
# dialogue, callbench.contract's constants), never through one kit's code.
ABOVE_THE_KITS = ("harness", "report", "cli", "profile")


def modules(package: Path) -> list[tuple[Path, str, str]]:
    """Each module under ``package``: its file, its dotted name and where it is, as a
    finding names it (``callbench/harness/run.py``)."""
    return [(path, module_of(path, package), str(path.relative_to(package.parent)))
            for path in sorted(package.rglob("*.py"))]  # fmt: skip


def into_a_kit(package: Path = PACKAGE) -> list[str]:
    """Every import of ``driverkit`` from a module of ``ABOVE_THE_KITS``, as ``file:line``."""
    return [f"{where}:{line}: {module}"
            for path, me, where in modules(package) if top(me) in ABOVE_THE_KITS
            for line, module in imports(path) if top(module) == "driverkit"]  # fmt: skip


def test_nothing_above_the_kits_imports_one() -> None:
    assert into_a_kit() == []


def test_the_check_sees_a_kit_imported(tmp_path: Path) -> None:
    package = tmp_path / "callbench"
    (package / "harness" / "load").mkdir(parents=True)
    (package / "harness" / "load" / "serving.py").write_text(
        "from callbench.driverkit.paced import SPIN_NS\n"
    )
    (package / "drivers.py").write_text("from callbench.driverkit.paced import SPIN_NS\n")
    assert into_a_kit(package) == ["callbench/harness/load/serving.py:1: callbench.driverkit.paced"]


# Each room and the rooms it must not import (its __init__ says so): the harness's top runs
# one driver and imports neither room; the count and load generation import the top, never
# each other. The report's blocks import no section and nothing of the top; its sections
# import blocks, never the top (document, charts, readme) that puts them together.
ROOMS: dict[str, tuple[str, ...]] = {
    "callbench.harness": ("callbench.harness.count", "callbench.harness.load"),
    "callbench.harness.count": ("callbench.harness.load",),
    "callbench.harness.load": ("callbench.harness.count",),
    "callbench.report": (),
    "callbench.report.blocks": ("callbench.report.sections", "callbench.report"),
    "callbench.report.sections": ("callbench.report",),
}


def room_of(module: str) -> str | None:
    """The room of ``ROOMS`` that holds ``module`` (its innermost), None outside them."""
    held = [r for r in ROOMS if module.startswith(r + ".")]
    return max(held, key=len) if held else None


def out_of_rooms(package: Path = PACKAGE) -> list[str]:
    """Every import from a room into one it must not import, as ``file:line: a > b``."""
    found = []
    for path, name, where in modules(package):
        me = room_of(name)
        for line, module in imports(path) if me is not None else []:
            to = module if module in ROOMS else room_of(module)
            if to is not None and to in ROOMS[me]:
                found.append(f"{where}:{line}: {me} > {to}")
    return found


def test_every_room_is_a_package_with_its_rules() -> None:
    for room in ROOMS:
        init = PACKAGE.parent.joinpath(*room.split(".")) / "__init__.py"
        assert init.is_file() and ast.get_docstring(ast.parse(init.read_text())), room


def test_no_room_imports_one_it_must_not() -> None:
    assert out_of_rooms() == []


def test_the_check_sees_a_room_broken(tmp_path: Path) -> None:
    package = tmp_path / "callbench"
    (package / "harness" / "count").mkdir(parents=True)
    (package / "report" / "blocks").mkdir(parents=True)
    (package / "harness" / "session.py").write_text(
        "from callbench.harness.load import serving\nfrom callbench.harness import console\n"
    )
    (package / "harness" / "count" / "run.py").write_text("from callbench.harness import run\n")
    (package / "report" / "blocks" / "tables.py").write_text(
        "import callbench.report.charts\nfrom callbench.report.blocks import claims\n"
    )
    assert out_of_rooms(package) == [
        "callbench/harness/session.py:1: callbench.harness > callbench.harness.load",
        "callbench/report/blocks/tables.py:1: callbench.report.blocks > callbench.report",
    ]


# A module over this many lines is a place to split (STYLE.md), unless it is a table of data.
MAX_LINES = 300
# None today: registry.py, the one table that neared it, is under it.
DATA_TABLES: tuple[str, ...] = ()


def too_long(package: Path = PACKAGE) -> list[str]:
    """Every module over ``MAX_LINES`` not named in ``DATA_TABLES``, with its length."""
    lengths = [(where, len(path.read_text().splitlines()), name)
               for path, name, where in modules(package)]  # fmt: skip
    return [f"{where}: {n} lines" for where, n, name in lengths
            if n > MAX_LINES and name not in DATA_TABLES]  # fmt: skip


def test_no_module_grows_past_the_limit() -> None:
    assert too_long() == []


def test_the_check_sees_a_long_module(tmp_path: Path) -> None:
    package = tmp_path / "callbench"
    package.mkdir()
    (package / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (package / "short.py").write_text("x = 1\n" * MAX_LINES)
    assert too_long(package) == [f"callbench/long.py: {MAX_LINES + 1} lines"]
