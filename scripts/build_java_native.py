"""Build java/native (the JNI peer of org.pytorch:pytorch_java_only) into build/java-native/.

The libraries land in build/java-native/lib (libpytorch_jni.so, libfbjni.so),
the folder the JVM gets as java.library.path. The JUnit tests' TorchScript
modules are (re)written to build/java-native/test-modules when their generator
changed. LibTorch comes from the torch
wheel of the Python running this script, through the symlink
build/java-native/torch (also the RPATH), which is retargeted when another venv
runs the script. Incremental: CMake is configured only when the build folder
is new.

Usage: python scripts/build_java_native.py (run by scripts/build_java.py)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import _build
from _build import BuildError, point, run

REPO = _build.REPO_ROOT
SOURCE = REPO / "java" / "native"
DEFAULT_BUILD = REPO / "build" / "java-native"
LIBRARIES = ("libpytorch_jni.so", "libfbjni.so")
TEST_MODULES_SCRIPT = REPO / "java" / "src" / "test" / "python" / "export_testmodules.py"


def require_tool(name: str, install_hint: str) -> str:
    _build.require({name: install_hint})
    return str(shutil.which(name))


def torch_root() -> Path:
    """The torch package folder of this Python, found without importing torch (slow)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise BuildError(
            f"torch is not installed in {sys.executable}: pip install the project first"
        )
    root = Path(spec.origin).parent
    if not (root / "lib" / "libtorch_cpu.so").is_file():
        raise BuildError(f"{root}/lib/libtorch_cpu.so missing: this torch wheel ships no LibTorch")
    return root


def torch_cxx11_abi() -> str:
    """torch._C._GLIBCXX_USE_CXX11_ABI, asked in a child so this script stays light."""
    code = "import torch; print(int(torch.compiled_with_cxx11_abi()))"
    return subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout.strip()


def java_home() -> Path:
    """The JDK of JAVA_HOME, else the one javac on PATH belongs to."""
    env = os.environ.get("JAVA_HOME")
    if env and (Path(env) / "include" / "jni.h").is_file():
        return Path(env)
    javac = require_tool("javac", "a JDK 17 (apt-get install openjdk-17-jdk-headless)")
    home = Path(javac).resolve().parents[1]
    if not (home / "include" / "jni.h").is_file():
        raise BuildError(
            f"{home}/include/jni.h missing: install a full JDK (openjdk-17-jdk-headless)"
        )
    return home


def cached_value(cache: Path, key: str) -> str | None:
    if not cache.is_file():
        return None
    for line in cache.read_text().splitlines():
        if line.startswith(key + ":"):
            return line.split("=", 1)[1]
    return None


def stable_torch_link(build: Path, torch: Path) -> Path:
    """build/torch -> this Python's torch package, retargeted when another venv runs us.

    Each nox session has its own venv with the same pinned wheel; compiling and
    linking through one stable path (also the RPATH) keeps the CMake cache
    valid across them, so switching sessions does not reconfigure.
    """
    point(build / "torch", torch)
    return build / "torch"


def configure(build: Path, torch: Path) -> None:
    cache = build / "CMakeCache.txt"
    if cached_value(cache, "TORCH_ROOT") == str(torch):
        return  # cmake --build re-runs CMake itself when CMakeLists.txt changes
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    run(
        "cmake", "-S", SOURCE, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
        f"-DTORCH_ROOT={torch}", f"-DTORCH_CXX11_ABI={torch_cxx11_abi()}",
        f"-DJAVA_HOME={java_home()}",
    )  # fmt: skip


def export_test_modules(build: Path) -> None:
    """Run the generator when its source changed since the last export (a stamp file)."""
    out = build / "test-modules"
    stamp = out / ".stamp"
    source = TEST_MODULES_SCRIPT.stat()
    fingerprint = f"{source.st_size} {source.st_mtime_ns}"
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return
    result = subprocess.run(
        [sys.executable, str(TEST_MODULES_SCRIPT), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise BuildError(f"{TEST_MODULES_SCRIPT.name} failed (output above)")
    stamp.write_text(fingerprint)


def build(args: argparse.Namespace) -> str:
    require_tool("cmake", "cmake (apt-get install cmake)")
    require_tool("g++", "a C++ compiler (apt-get install g++)")
    build = DEFAULT_BUILD
    configure(build, stable_torch_link(build, torch_root()))
    # Two jobs at most: the LibTorch headers are heavy and the machine is shared.
    run("cmake", "--build", build, "-j", str(min(args.jobs, 2)), what=f"building {SOURCE}")
    lib_dir = build / "lib"
    missing = [name for name in LIBRARIES if not (lib_dir / name).is_file()]
    if missing:
        raise BuildError(f"{lib_dir}: {', '.join(missing)} not built")
    export_test_modules(build)
    return f"libraries in {lib_dir}"


if __name__ == "__main__":
    sys.exit(_build.main("build_java_native", __doc__, build))
