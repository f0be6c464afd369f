"""C++ drivers: executables built from cpp/drivers/<id with underscores>.cpp into build/cpp/bin/."""

from __future__ import annotations

import os
import re
from dataclasses import replace
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
# What scripts/build_cpp.py builds with (the Java org.pytorch peer too).
TOOLCHAIN = ("cmake", "ninja", "g++")
INSTALL = "CMake >= 3.25, Ninja and g++ (apt-get install cmake ninja-build g++)"


def driver(driver_id: str, runtime: str, artifact: str) -> DriverSpec:
    path = BIN_DIR / driver_id

    def available() -> str | None:
        reason = binary_available(path, HINT)
        skipped = BIN_DIR / f"{driver_id}.skipped"
        if reason is not None and skipped.is_file():
            return f"not built: {skipped.read_text().strip()}"
        if reason is None and DEPS_SITE.is_symlink() and not DEPS_SITE.exists():
            return f"the Python environment the C++ drivers were built with is gone: {HINT}"
        return reason

    return binary_driver(
        driver_id, LANGUAGE, runtime, artifact,
        bin_dir=BIN_DIR,
        source=REPO_ROOT / "cpp" / "drivers" / (driver_id.replace("-", "_") + ".cpp"),
        toolchain=TOOLCHAIN,
        install=INSTALL,
        hint=HINT,
        available=available,
    )  # fmt: skip


def independent(driver_id: str, runtime: str, artifact: str, file: str) -> DriverSpec:
    """A plain C++ caller in cpp/independent/ that links no kit code (built as bin/<id>)."""
    return replace(driver(driver_id, runtime, artifact),
                   source=REPO_ROOT / "cpp" / "independent" / file,
                   one_caller="a plain loop of one caller")  # fmt: skip


# How cpp/drivers/CMakeLists.txt and cmake/PyTorchDeployDrivers.cmake choose what a
# driver links: by a pattern on its id, per runtime family. A runtime without a rule
# here has no build rule there, and its driver would link only the kit.
CMAKE_FAMILIES: dict[str, str] = {  # in the order CMake tries them
    "cuda": r"^cpp-cuda",
    "aotinductor-cuda": r"^cpp-aoti-cuda$",  # an AOTInductor driver built with CALLBENCH_CUDA
    "aotinductor": r"^cpp-aoti",
    "executorch": r"^cpp-executorch",
    "libtorch": r"torchscript|libtorch",
    "onnxruntime": r"onnxruntime",
    "openvino": r"openvino",
}
KIT_ONLY = ("handwritten",)  # runtimes that link the kit alone: their id matches no family


def cmake_family(driver_id: str) -> str | None:
    """The family CMake links a driver as, by its id; None for the kit alone."""
    return next((name for name, pattern in CMAKE_FAMILIES.items()
                 if re.search(pattern, driver_id)), None)  # fmt: skip


def family_problem(spec: DriverSpec) -> str | None:
    """Why CMake would not build ``spec`` with its runtime, or None when it would."""
    family = cmake_family(spec.id)
    matching = [family] if family else []
    if spec.runtime in KIT_ONLY:
        if matching:
            return f"{spec.id}: runtime {spec.runtime}, but CMake links it as {matching[0]}"
        return None
    if spec.runtime not in CMAKE_FAMILIES:
        return (f"{spec.id}: runtime family {spec.runtime!r} has no CMake rule "
                "(cpp/drivers/CMakeLists.txt)")  # fmt: skip
    if matching[:1] != [spec.runtime]:
        found = matching[0] if matching else "the kit only"
        return f"{spec.id}: runtime {spec.runtime}, but CMake links it as {found} (by its id)"
    return None
