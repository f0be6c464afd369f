"""The registry: one line per driver, each one hop from its source, no import cycle."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from callbench.languages import cpp, java, rust, sources
from callbench.languages.spec import built_by
from callbench.paths import REPO_ROOT
from callbench.registry import (
    DRIVERS,
    LANGUAGES,
    SWEEP_DRIVERS,
    language_key,
    seed_driver,
    seed_drivers,
    select,
    the_floor,
)
from callbench.roles import SEED_ROWS, Call


def test_ids_are_unique_and_name_their_language() -> None:
    ids = [d.id for d in DRIVERS]
    assert len(ids) == len(set(ids))
    assert {language_key(d) for d in DRIVERS} <= set(LANGUAGES)


def test_every_driver_names_a_source_file_that_exists() -> None:
    missing = [f"{d.id}: {d.source}" for d in DRIVERS if not d.source.is_file()]
    assert missing == []


def test_sweep_drivers_are_registered() -> None:
    assert set(SWEEP_DRIVERS) <= {d.id for d in DRIVERS}


def test_the_report_finds_its_drivers_by_the_flags_on_their_lines() -> None:
    """One floor; every seed row has our call, and its drivers are listed as written, ours,
    fast; the report's sections name no driver of their own."""
    assert the_floor() == "cpp-handwritten"
    for row in SEED_ROWS:
        calls = [d.seed.call for d in seed_drivers(row) if d.seed]
        assert calls == sorted(set(calls)) and Call.OURS in calls, row.label
    assert seed_driver(SEED_ROWS[0], Call.AS_WRITTEN) == "python-eager-seed"
    assert [d.id for d in seed_drivers(SEED_ROWS[3])] == [
        "cpp-torchscript-seed", "cpp-torchscript", "cpp-torchscript-reuse"
    ]  # fmt: skip
    report = REPO_ROOT / "python" / "callbench" / "report"
    ids = {d.id for d in DRIVERS}
    named = [f"{path.name}: {word}" for path in sorted(report.glob("*.py"))
             for word in re.findall(r"[a-z]+(?:-[a-z0-9]+)+", path.read_text())
             if word in ids]  # fmt: skip
    assert named == []


def test_selection_by_prefix_and_language() -> None:
    chosen = {d.id for d in select(["cpp-onnxruntime"])}
    assert chosen == {"cpp-onnxruntime", "cpp-onnxruntime-reuse", "cpp-onnxruntime-iobinding",
                      "cpp-onnxruntime-reuse-sessions"}  # fmt: skip
    assert all(d.language == "Java" for d in select(None, ["java"]))


def test_the_package_has_no_import_cycle(repo_root: Path) -> None:
    """The same check as the project's pre-stop hook, from the stdlib's AST."""
    import ast

    package = repo_root / "python" / "callbench"
    graph: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = {m for m in found if m.startswith("callbench")}
    modules = set(graph)
    edges = {m: {t for t in targets if t in modules and t != m} for m, targets in graph.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                return [*trail, node, nxt]
            if nxt not in state and (cycle := visit(nxt, [*trail, node])):
                return cycle
        state[node] = 2
        return None

    for module in sorted(modules):
        if module not in state:
            assert visit(module, []) is None


def test_callbench_help_and_list_work() -> None:
    for args in (["--help"], ["list"]):
        done = subprocess.run([sys.executable, "-m", "callbench.cli", *args],
                              capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "callbench.cli", "list"],
        capture_output=True, text=True, timeout=120, check=False,
    ).stdout  # fmt: skip
    for spec in DRIVERS:
        assert spec.id in listed
    # Each driver's block names its source and what builds it.
    blocks = listed.split("\n\n", 1)[0].splitlines()[1:]
    assert sum(line.strip().startswith("source: ") for line in blocks) == len(DRIVERS)
    assert sum(line.strip().startswith("build: ") for line in blocks) == len(DRIVERS)
    assert "build: Cargo: [[bin]] rust-tract of rust/drivers/Cargo.toml" in listed
    assert "build: Cargo: [[bin]] rust-burn of rust/burn/Cargo.toml" in listed
    assert "build: javac of a JDK >= 22: class OnnxRuntimeFfmDriver of java/ffm" in listed
    roles = [line.split("roles: ", 1)[1] for line in blocks if "roles: " in line]
    assert sum("sweep" in r.split(", ") for r in roles) == len(SWEEP_DRIVERS) > 0
    assert "roles: floor, sweep" in listed
    assert "seed row 'TorchScript from C++' (the seed's call as written)" in listed
    assert "build: CMake: the onnxruntime rule of cpp/drivers/CMakeLists.txt" in listed


def test_every_cpp_driver_has_a_cmake_rule_for_its_runtime() -> None:
    cpp_drivers = [d for d in DRIVERS if language_key(d) == "cpp"]
    assert [p for d in cpp_drivers if (p := cpp.family_problem(d))] == []
    # A runtime family CMake does not know, and an id that CMake would link as another.
    unknown = replace(cpp_drivers[0], id="cpp-tensorrt", runtime="tensorrt")
    assert "runtime family 'tensorrt' has no CMake rule" in (cpp.family_problem(unknown) or "")
    misnamed = replace(cpp_drivers[0], id="cpp-ort-fast", runtime="onnxruntime")
    assert "links it as the kit only" in (cpp.family_problem(misnamed) or "")
    cmake = (REPO_ROOT / "cpp" / "drivers" / "CMakeLists.txt").read_text()
    for pattern in ("torchscript|libtorch", "onnxruntime", "openvino", "aoti|executorch"):
        assert pattern in cmake  # the rules the family table mirrors are still there


def test_every_rust_driver_has_its_cargo_bin(tmp_path: Path) -> None:
    bins = rust.cargo_bins()
    rust_drivers = [d for d in DRIVERS if language_key(d) == "rust"]
    assert [p for d in rust_drivers if (p := rust.bin_problem(d, bins))] == []
    assert set(bins) == {d.id for d in rust_drivers}  # and no bin the registry lacks
    # A manifest that lost one driver's [[bin]] is caught, naming the driver.
    text = rust.CARGO_TOML.read_text()
    start = text.index('[[bin]]\nname = "rust-tract"\n')
    end = text.index("[[bin]]", start + 1)
    damaged = tmp_path / "Cargo.toml"
    damaged.write_text(text[:start] + text[end:])
    tract = next(d for d in rust_drivers if d.id == "rust-tract")
    assert (rust.bin_problem(tract, rust.cargo_bins(damaged)) or "").startswith(
        "rust-tract: no [[bin]] named rust-tract"
    )


def test_every_java_class_declares_the_id_and_artifact_of_its_registry_line() -> None:
    java_drivers = [d for d in DRIVERS if language_key(d) == "java"]
    assert [p for d in java_drivers if (p := java.declared_problem(d))] == []
    reuse = next(d for d in java_drivers if d.id == "java-onnxruntime-reuse")

    def renamed(path: Path) -> str:  # the class says another id than its line
        return path.read_text().replace('super("java-onnxruntime-reuse",', 'super("java-ort",')

    assert "does not declare its id" in (java.declared_problem(reuse, renamed) or "")
    other = replace(reuse, artifact="mlp_torchscript.pt")
    assert "OnnxRuntimeFamily.java: artifact() does not return mlp_torchscript.pt" in (
        java.declared_problem(other) or ""
    )


def test_a_driver_without_its_toolchain_says_what_to_install() -> None:
    """A skip is allowed only where the toolchain is absent, and then it says what to install;
    with the toolchain here, the reason is the build's (test_drivers_verified fails on it)."""
    unbuilt = replace(DRIVERS[0], available=lambda: "build/x missing: run `callbench build`")
    absent = built_by(unbuilt, ("sh", "callbench-no-such-tool"), "the tool (apt-get install it)")
    assert absent.missing_tool() == "callbench-no-such-tool"
    assert absent.available() == (
        f"no `callbench-no-such-tool` on PATH, so {DRIVERS[0].id} is not built: "
        "install the tool (apt-get install it)"
    )
    present = built_by(unbuilt, ("sh",), "a shell")
    assert present.missing_tool() is None
    assert present.available() == "build/x missing: run `callbench build`"
    built = {language_key(d): d.toolchain for d in DRIVERS if d.toolchain}
    assert set(built) == {"python", "cpp", "java", "rust", "go", "node"}
    assert built["cpp"] == ("cmake", "ninja", "g++") and built["rust"] == ("cargo",)


def test_every_driver_opens_the_artifact_of_its_registry_line() -> None:
    """Read from its sources (and the support files they include or import)."""
    assert [p for d in DRIVERS if (p := sources.artifact_problem(d))] == []
    # A line that names another artifact than its code opens is caught, in every language.
    for language in LANGUAGES:
        first = next(d for d in DRIVERS if language_key(d) == language)
        other = "mlp.pte" if first.artifact != "mlp.pte" else "mlp.onnx"
        problem = sources.artifact_problem(replace(first, artifact=other))
        assert problem and problem.startswith(
            f"{first.id}: its registry line says {other}, its code names {first.artifact} in "
        ), problem
    ort = sources.opened_artifacts(next(d for d in DRIVERS if d.id == "rust-ort"))
    assert ort == {"mlp.onnx": [REPO_ROOT / "rust" / "drivers" / "src" / "ort_support.rs"]}
