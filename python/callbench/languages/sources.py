"""Which model artifact a driver's code opens, read from its sources, so that a test can
hold it to the artifact on its registry line.

A driver's code is its source file plus the project files it takes code from
(C++ ``#include "..."``, Rust ``use callbench_drivers::...``, Go's support packages
such as ``callbench/ortsupport``, relative JavaScript imports, Python imports under
``callbench.drivers``, a Java class's family). In that code, outside comments and
docstrings, an artifact is named by its file name in a string or, in Python, by its
constant in ``callbench.model``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from callbench.languages.spec import DriverSpec
from callbench.model import artifacts, exported_programs, iree_model, litert_model
from callbench.paths import REPO_ROOT

# The artifacts a driver may open, by the constant that names each in callbench.model.
CONSTANTS: dict[str, str] = {
    name: getattr(module, name)
    for module, names in (
        (artifacts, ("STATE_DICT", "TORCHSCRIPT", "ONNX", "WEIGHTS")),
        (
            exported_programs,
            ("AOTI_PACKAGE", "AOTI_CUDA_PACKAGE", "EXECUTORCH_XNNPACK", "EXECUTORCH_PORTABLE"),
        ),
        (litert_model, ("TFLITE",)),
        (iree_model, ("VMFB",)),
    )
    for name in names
}
FILES = frozenset(CONSTANTS.values())
# A kit's reader that opens an artifact itself, by the name a driver calls it with.
KIT_READERS: dict[str, str] = {"MlpWeights": artifacts.WEIGHTS}  # rust/kit/src/inputs.rs

_C_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_STRINGS = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'")
_INCLUDE = re.compile(r'#include\s+"([^"]+)"')
_RUST_USE = re.compile(r"\buse\s+callbench_drivers::(\w+)")
_JS_IMPORT = re.compile(r"\bfrom\s+'(\.[^']+)'")
_GO_IMPORT = re.compile(r'"callbench/(\w+)"')
_JAVA_CLASS = re.compile(r"\bextends\s+(\w+)|\b([A-Z]\w+)\.[A-Z_]+\b")
_PYTHON_PACKAGE = REPO_ROOT / "python"


def _python_imports(path: Path, tree: ast.Module) -> list[Path]:
    """Modules under callbench.drivers that ``path`` imports."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            module = (_PYTHON_PACKAGE / Path(*name.split("."))).with_suffix(".py")
            if name.startswith("callbench.drivers.") and module.is_file() and module != path:
                found.append(module)
    return found


def _python_names(tree: ast.Module) -> set[str]:
    """Artifacts named in Python code: their constants, or their file names in strings
    that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in CONSTANTS:
            named.add(CONSTANTS[node.id])
        elif isinstance(node, ast.Attribute) and node.attr in CONSTANTS:
            named.add(CONSTANTS[node.attr])
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and Path(node.value).name in FILES
        ):
            named.add(Path(node.value).name)
    return named


def _code_links(path: Path, code: str) -> list[Path]:
    """The project files a C-like source takes code from."""
    here = path.parent
    if path.suffix in (".cpp", ".hpp"):  # cpp/drivers/CMakeLists.txt adds support/ to the path
        headers = [d / name for name in _INCLUDE.findall(code) for d in (here, here / "support")]
        return [p for h in headers for p in (h, h.with_suffix(".cpp")) if p.is_file()]
    if path.suffix == ".rs":
        support = REPO_ROOT / "rust" / "drivers" / "src"
        return [p for m in _RUST_USE.findall(code) if (p := support / f"{m}.rs").is_file()]
    if path.suffix == ".go":  # a driver support package, not the kit (which opens no model)
        packages = [REPO_ROOT / "go" / m for m in _GO_IMPORT.findall(code) if m != "kit"]
        return [f for p in packages for f in sorted(p.glob("*.go"))
                if not f.name.endswith("_test.go")]  # fmt: skip
    if path.suffix == ".js":
        return [p for m in _JS_IMPORT.findall(code) if (p := (here / m).resolve()).is_file()]
    if path.suffix == ".java":  # its family, and classes whose constants it reads
        classes = {a or b for a, b in _JAVA_CLASS.findall(code)}
        return [p for m in classes if (p := here / f"{m}.java").is_file()]
    return []


def _read(path: Path) -> tuple[set[str], list[Path]]:
    """The artifacts ``path`` names in code, and the project files it takes code from."""
    text = path.read_text()
    if path.suffix == ".py":
        tree = ast.parse(text)
        return _python_names(tree), _python_imports(path, tree)
    code = _C_COMMENTS.sub("", text)
    named = {Path(a or b).name for a, b in _STRINGS.findall(code)} & FILES
    named |= {artifact for reader, artifact in KIT_READERS.items()
              if re.search(rf"\b{reader}\b", code)}  # fmt: skip
    return named, _code_links(path, code)


def opened_artifacts(spec: DriverSpec) -> dict[str, list[Path]]:
    """Each artifact the driver's code names, with the files that name it."""
    seen: set[Path] = set()
    todo = [spec.source]
    named: dict[str, list[Path]] = {}
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        found, links = _read(path)
        for artifact in found:
            named.setdefault(artifact, []).append(path)
        todo += links
    return named


def artifact_problem(spec: DriverSpec) -> str | None:
    """Where the artifact a driver's code opens is not the one on its registry line."""
    if not spec.source.is_file():
        return f"{spec.id}: its source {spec.source} is missing"
    named = opened_artifacts(spec)
    if set(named) == {spec.artifact}:
        return None
    if not named:
        return f"{spec.id}: its code names no artifact (its registry line says {spec.artifact})"
    where = "; ".join(
        f"{artifact} in {', '.join(str(p.relative_to(REPO_ROOT)) for p in paths)}"
        for artifact, paths in sorted(named.items())
    )
    return f"{spec.id}: its registry line says {spec.artifact}, its code names {where}"
