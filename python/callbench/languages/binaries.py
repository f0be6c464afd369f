"""Drivers that are executables named after their id (C++, Rust, Go)."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from callbench.languages.spec import DriverSpec, built_by


def binary_available(path: Path, hint: str) -> str | None:
    """None when the executable is there; a missing toolchain is ``spec.built_by``'s to say."""
    if not path.is_file():
        return f"{path} missing: {hint}"
    if not os.access(path, os.X_OK):
        return f"{path} is not executable: {hint}"
    return None


def binary_driver(
    driver_id: str,
    language: str,
    runtime: str,
    artifact: str,
    *,
    bin_dir: Path,
    source: Path,
    toolchain: tuple[str, ...],
    install: str,
    hint: str,
    available: Callable[[], str | None] | None = None,
) -> DriverSpec:
    """``available``: the language's own check (a reason the build left), else the file's."""
    path = bin_dir / driver_id
    spec = DriverSpec(
        id=driver_id,
        language=language,
        runtime=runtime,
        artifact=artifact,
        source=source,
        command=lambda: [str(path)],
        available=available or partial(binary_available, path, hint),
    )
    return built_by(spec, toolchain, install)
