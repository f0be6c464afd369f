"""C++ drivers: executables built from cpp/drivers/<id with underscores>.cpp into build/cpp/bin/."""

from __future__ import annotations

import os
from pathlib import Path

from callbench.languages.binaries import binary_available, binary_driver
from callbench.languages.spec import DriverSpec
from callbench.paths import BUILD, REPO_ROOT

LANGUAGE = "C++"
# CALLBENCH_CPP_BIN points at binaries built elsewhere (tests use it to simulate "not built").
BIN_DIR = Path(os.environ.get("CALLBENCH_CPP_BIN") or BUILD / "cpp" / "bin")
# The site-packages whose LibTorch / ONNX Runtime the binaries were linked with.
DEPS_SITE = BUILD / "cpp" / "deps" / "site-packages"
HINT = "run `nox -s bench-cpp` (or `callbench build cpp`)"


def driver(driver_id: str, runtime: str, artifact: str) -> DriverSpec:
    spec = binary_driver(
        driver_id, LANGUAGE, runtime, artifact,
        bin_dir=BIN_DIR,
        source=REPO_ROOT / "cpp" / "drivers" / (driver_id.replace("-", "_") + ".cpp"),
        toolchain="cmake",
        hint=HINT,
    )  # fmt: skip
    path = BIN_DIR / driver_id

    def available() -> str | None:
        reason = binary_available(path, "cmake", HINT)
        skipped = BIN_DIR / f"{driver_id}.skipped"
        if reason is not None and skipped.is_file():
            return f"not built: {skipped.read_text().strip()}"
        if reason is None and DEPS_SITE.is_symlink() and not DEPS_SITE.exists():
            return f"the Python environment the C++ drivers were built with is gone: {HINT}"
        return reason

    return DriverSpec(**{**spec.__dict__, "available": available})
