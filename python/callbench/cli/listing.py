"""``callbench list``: every registered driver, whether it can run here, and if not, why."""

from __future__ import annotations

import argparse
from pathlib import Path

from callbench.harness.count.callgrind import unavailable
from callbench.languages import cpp, java, rust
from callbench.languages.spec import DriverSpec
from callbench.paths import REPO_ROOT
from callbench.registry import DRIVERS, language_key
from callbench.roles import SHARED


def build_entry(spec: DriverSpec, bins: dict[str, Path]) -> str:
    """What builds the driver, in its language's own tool: one hop from the registry line."""
    key = language_key(spec)
    if key == "python":
        return f"none (entry callbench.drivers.{spec.entry})" if spec.entry else "none (a script)"
    if key == "cpp":
        if spec.source.parent.name == "independent":  # a plain program: no kit, no family
            return f"CMake: target {spec.id} of cpp/independent/CMakeLists.txt"
        family = cpp.cmake_family(spec.id) or "kit-only"
        return f"CMake: the {family} rule of cpp/drivers/CMakeLists.txt"
    if key == "rust":
        if spec.id not in bins:
            return "Cargo: no [[bin]] (not built)"
        crate = next(p for p in bins[spec.id].parents if (p / "Cargo.toml").is_file())
        return f"Cargo: [[bin]] {spec.id} of {(crate / 'Cargo.toml').relative_to(REPO_ROOT)}"
    if key == "java":
        if spec.source.is_relative_to(java.FFM_SOURCES):
            return f"javac of a JDK >= 22: class {spec.source.stem} of java/ffm (build_java.py)"
        return f"Maven: class {spec.source.stem} of java/pom.xml"
    if key == "go":
        return f"go build ./cmd/{spec.id} (go/go.mod)"
    return "none (node runs the file; node/package.json for its packages)"


def role_words(spec: DriverSpec) -> str:
    """The flags its registry line sets, e.g. "sweep, seed row 'C++ API (…)' (our call)"."""
    words = sorted(spec.roles)
    if spec.seed is not None:
        words.append(f"seed row '{spec.seed.row.label}' ({spec.seed.call.words})")
    return ", ".join(words)


def caller_words(spec: DriverSpec) -> str:
    """How it takes --callers N (contract 4): its callers' hold on the model, or why one."""
    if spec.callers is not None:
        return f"--callers N, the model {'shared' if spec.callers == SHARED else 'one per caller'}"
    return f"one ({spec.one_caller})"


def listing() -> str:
    bins = rust.cargo_bins()
    rows = [f"{'driver':34} {'language':9} {'runtime':18} {'artifact':20} status"]
    for spec in DRIVERS:
        reason = spec.available()
        status = "ready" if reason is None else f"cannot run: {reason}"
        rows.append(f"{spec.id:34} {spec.language:9} {spec.runtime:18} {spec.artifact:20} {status}")
        rows.append(f"{'':34} source: {spec.source.relative_to(REPO_ROOT)}")
        rows.append(f"{'':34} build: {build_entry(spec, bins)}")
        if roles := role_words(spec):
            rows.append(f"{'':34} roles: {roles}")
        rows.append(f"{'':34} callers: {caller_words(spec)}")
    reason = unavailable()
    rows.append("")
    rows.append(
        "callbench count (instructions per call under callgrind): "
        + (f"unavailable: {reason}" if reason else "available")
    )
    return "\n".join(rows)


def main(args: argparse.Namespace) -> int:
    print(listing())
    return 0
