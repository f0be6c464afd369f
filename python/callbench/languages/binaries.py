"""Drivers that are executables named after their id (C++, Rust, Go)."""

from __future__ import annotations

import os
import shutil
from functools import partial
from pathlib import Path

from callbench.languages.spec import DriverSpec


def binary_available(path: Path, toolchain: str | None, hint: str) -> str | None:
    if not path.is_file():
        if toolchain is not None and shutil.which(toolchain) is None:
            return f"no `{toolchain}` on PATH, so {path.name} is not built: {hint}"
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
    toolchain: str | None,
    hint: str,
) -> DriverSpec:
    path = bin_dir / driver_id
    return DriverSpec(
        id=driver_id,
        language=language,
        runtime=runtime,
        artifact=artifact,
        source=source,
        command=lambda: [str(path)],
        available=partial(binary_available, path, toolchain, hint),
    )
