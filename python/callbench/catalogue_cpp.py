"""C++ drivers registered with the harness: executables built from cpp/ by
``scripts/build_cpp.py`` into ``build/cpp/bin/<driver-id>``."""

from __future__ import annotations

import os
from pathlib import Path

from callbench.catalogue import REPO_ROOT, DriverSpec

# CALLBENCH_CPP_BIN points at binaries built elsewhere (tests use it to simulate "not built").
BIN_DIR = Path(os.environ.get("CALLBENCH_CPP_BIN") or REPO_ROOT / "build" / "cpp" / "bin")
# Symlink to the site-packages whose LibTorch/ONNX Runtime the binaries use.
DEPS_SITE = REPO_ROOT / "build" / "cpp" / "deps" / "site-packages"
BUILD_HINT = "run nox -s bench-cpp (or python scripts/build_cpp.py)"

# id, runtime, artifact, seconds per million calls (a generous limit, not a figure)
_DRIVERS = (
    ("cpp-torchscript", "libtorch", "mlp_torchscript.pt", 300.0),
    ("cpp-torchscript-reuse", "libtorch", "mlp_torchscript.pt", 300.0),
    ("cpp-libtorch", "libtorch", "mlp_weights.f32", 300.0),
    ("cpp-libtorch-out", "libtorch", "mlp_weights.f32", 300.0),
    ("cpp-onnxruntime", "onnxruntime", "mlp.onnx", 120.0),
    ("cpp-onnxruntime-reuse", "onnxruntime", "mlp.onnx", 120.0),
    ("cpp-onnxruntime-iobinding", "onnxruntime", "mlp.onnx", 120.0),
    ("cpp-handwritten", "handwritten", "mlp_weights.f32", 30.0),
)


def binary(driver_id: str) -> Path:
    return BIN_DIR / driver_id


def _available(driver_id: str) -> str | None:
    path = binary(driver_id)
    if not path.is_file():
        return f"C++ driver not built ({path} missing): {BUILD_HINT}"
    if not os.access(path, os.X_OK):
        return f"{path} is not executable: {BUILD_HINT}"
    if DEPS_SITE.is_symlink() and not DEPS_SITE.exists():
        return f"the Python environment the C++ drivers were built with is gone: {BUILD_HINT}"
    return None


DRIVERS: list[DriverSpec] = [
    DriverSpec(
        id=driver_id,
        language="C++",
        runtime=runtime,
        artifact=artifact,
        command=lambda driver_id=driver_id: [str(binary(driver_id))],  # type: ignore[misc]
        available=lambda driver_id=driver_id: _available(driver_id),  # type: ignore[misc]
        seconds_per_million=limit,
    )
    for driver_id, runtime, artifact, limit in _DRIVERS
]
