"""Rust drivers: binaries of the Cargo workspaces in rust/ (and rust/burn/, whose
Cargo.toml says why it stands apart), built into build/rust/release/."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

from callbench.languages.binaries import binary_available, binary_driver
from callbench.languages.native import onnxruntime_env
from callbench.languages.spec import DriverSpec
from callbench.paths import BUILD, REPO_ROOT

LANGUAGE = "Rust"
BIN_DIR = BUILD / "rust" / "release"
DRIVERS_CRATE = REPO_ROOT / "rust" / "drivers"
BURN_CRATE = REPO_ROOT / "rust" / "burn"
HINT = "run `nox -s bench-rust` (or `callbench build rust`)"


def driver(
    driver_id: str, runtime: str, artifact: str, *, crate: Path = DRIVERS_CRATE
) -> DriverSpec:
    """A binary of ``crate`` (the drivers' crate, or rust/burn) named after its id."""
    path = BIN_DIR / driver_id

    def available() -> str | None:
        reason = binary_available(path, HINT)
        skipped = BUILD / "rust" / "skipped.json"
        if reason is not None and skipped.is_file():
            why = json.loads(skipped.read_text()).get(driver_id)
            return f"not built: {why}" if why else reason
        return reason

    spec = binary_driver(
        driver_id, LANGUAGE, runtime, artifact,
        bin_dir=BIN_DIR,
        source=crate / "src" / "bin" / (driver_id.replace("-", "_") + ".rs"),
        toolchain=("cargo",),
        install="Rust (rustup.rs, or apt-get install cargo)",
        hint=HINT,
        available=available,
    )  # fmt: skip
    return replace(spec, env=onnxruntime_env)


CARGO_TOML = DRIVERS_CRATE / "Cargo.toml"
MANIFESTS = (CARGO_TOML, BURN_CRATE / "Cargo.toml")


def cargo_bins(*manifests: Path) -> dict[str, Path]:
    """The ``[[bin]]`` entries of the drivers' Cargo manifests (by default both
    workspaces'): name -> source file."""
    bins = {}
    for manifest in manifests or MANIFESTS:
        data = tomllib.loads(manifest.read_text())
        bins.update({b["name"]: manifest.parent / b["path"] for b in data.get("bin", [])})
    return bins


def bin_problem(spec: DriverSpec, bins: dict[str, Path]) -> str | None:
    """Why Cargo would not build ``spec`` as its binary, or None when it would."""
    if spec.id not in bins:
        named = " or ".join(map(str, MANIFESTS))
        return f"{spec.id}: no [[bin]] named {spec.id} in {named}"
    if bins[spec.id].resolve() != spec.source.resolve():
        return f"{spec.id}: its [[bin]] builds {bins[spec.id]}, the registry names {spec.source}"
    return None
