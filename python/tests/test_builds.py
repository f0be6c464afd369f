"""What a build builds: C++ and Rust only the drivers a run chose, the unit tests only when
they are run or linted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from callbench.cli.builds import only_these
from callbench.languages.spec import DriverSpec
from callbench.registry import DRIVERS, language_key, lookup
from tests.conftest import require_tool

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def every(language: str) -> list[DriverSpec]:
    return [s for s in DRIVERS if language_key(s) == language]


def test_a_choice_of_some_drivers_names_them_and_a_whole_language_names_none() -> None:
    chosen = [lookup("cpp-handwritten"), lookup("rust-tract"), lookup("python-numpy")]
    assert only_these("cpp", chosen) == ["--driver", "cpp-handwritten"]
    assert only_these("rust", chosen) == ["--driver", "rust-tract"]
    assert only_these("python", chosen) == []  # built whole: its build is seconds
    assert only_these("rust", every("rust")) == []
    assert only_these("rust", []) == []


def build_rust_module() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))
    try:
        import build_rust
    finally:
        sys.path.remove(str(SCRIPTS))
    return build_rust


def test_rust_knows_each_driver_binary_and_refuses_one_it_has_not() -> None:
    build_rust = build_rust_module()
    registered = {s.id for s in every("rust")}
    assert build_rust.chosen([]) == registered
    assert build_rust.chosen(["rust-tract"]) == {"rust-tract"}
    drivers = build_rust.binaries(build_rust.SOURCE / "drivers" / "Cargo.toml")
    assert drivers["rust-tch"] == ["tch"] and drivers["rust-handwritten"] == []
    with pytest.raises(build_rust.BuildError, match="no Rust driver rust-nothing"):
        build_rust.chosen(["rust-nothing", "rust-tract"])


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPTS / name), *args],
                          capture_output=True, text=True, timeout=1200, check=False)  # fmt: skip


def test_rust_builds_the_one_driver_asked_for_without_provisioning_libtorch() -> None:
    require_tool("cargo")
    done = run_script("build_rust.py", "--driver", "rust-handwritten")
    assert done.returncode == 0, done.stderr
    cargo = [line for line in done.stdout.splitlines() if line.startswith("+ ")]
    assert len(cargo) == 1 and cargo[0].endswith("--bin rust-handwritten"), cargo
    assert "tch" not in done.stdout + done.stderr


def test_cpp_builds_the_drivers_asked_for_that_are_configured_here() -> None:
    require_tool("cmake")
    require_tool("ninja")
    # A CUDA row is configured only where CUDA is: elsewhere its .skipped says why.
    done = run_script("build_cpp.py", "--driver", "cpp-handwritten", "--driver", "cpp-cuda-floor")
    assert done.returncode == 0, done.stderr
    built = [line for line in done.stdout.splitlines() if line.startswith("+ cmake --build")]
    assert len(built) == 1 and "--target cpp-handwritten" in built[0], built
    configured = "cpp-cuda-floor" in built[0]
    assert configured == ("-DCALLBENCH_CUDA=ON" in done.stdout)
    assert "-DCALLBENCH_TESTS=OFF" in done.stdout
