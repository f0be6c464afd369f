"""Build the Rust drivers (rust/) into build/rust/release/<driver-id>; --test also
runs `cargo test`, --lint `cargo fmt --check` and `cargo clippy -D warnings`;
--driver ID (repeatable) builds only those drivers.

Every crate comes from the Rust crate registry, pinned in rust/Cargo.lock. ONNX
Runtime is loaded at run time from the file named by CALLBENCH_ONNXRUNTIME_LIB
(the onnxruntime wheel's library).

The tch drivers (rust-tch, rust-tch-torchscript) link LibTorch, and the tch
crate accepts exactly one LibTorch version (TCH_LIBTORCH), not the project's
torch. It comes from a torch wheel of that version from PyPI: uv installs
rust/tch-python.lock (torch and the two CUDA libraries LibTorch's CPU library
loads) into ~/.cache/callbench/tch-python (CACHE below), once, and reuses it while the lock is
unchanged. CALLBENCH_TCH_PYTHON names another Python with that torch instead.
torch-sys is pointed at the wheel's torch folder (LIBTORCH), through the stable
symlink ~/.cache/callbench/rust-deps/libtorch, which the binaries' RPATH also goes through.
When no such Python can be had (no uv, no network), the tch drivers are left
out, build/rust/skipped.json says why for the harness to record them skipped,
and the other drivers are built.

rust-burn is its own workspace, rust/burn/ (its Cargo.toml says why), with its
own Cargo.lock, built into the same Cargo folder after the others; it needs
Rust >= 1.95 (burn 0.22.1), and is recorded skipped on an older toolchain.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import _build
from _build import BuildError, point

REPO_ROOT = _build.REPO_ROOT
SOURCE = REPO_ROOT / "rust"
TARGET = REPO_ROOT / "build" / "rust"
BIN_DIR = TARGET / "release"
SKIPPED = TARGET / "skipped.json"
# Cargo's build folder, the tch environment and the LibTorch symlink live in a
# cache shared by every clone on the machine, at paths that do not depend on
# the clone: a fresh clone then reuses the compiled crates (tract and torch-sys
# take most of 20 minutes on two cores) and gets its binaries copied to BIN_DIR.
CACHE = Path(
    os.environ.get("CALLBENCH_CACHE_DIR")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "callbench"
)
CARGO_TARGET = CACHE / "rust-target"
DEPS = CACHE / "rust-deps"

MIN_RUST = (1, 92)  # ort 2.0.0-rc.15 needs 1.92; tract-onnx 0.23.9 needs 1.91
BURN = SOURCE / "burn"
BURN_MIN_RUST = (1, 95)  # burn 0.22.1
BURN_DRIVERS = ("rust-burn",)
TCH_LIBTORCH = "2.13.0"  # the only LibTorch tch 0.26.0 (torch-sys) accepts
TCH_DRIVERS = ("rust-tch", "rust-tch-torchscript")
TCH_LOCK = SOURCE / "tch-python.lock"
TCH_VENV = CACHE / "tch-python"
TCH_STAMP = TCH_VENV / "callbench-lock.txt"  # the lock the environment was installed from
# torch-sys reads these too; they would override the LibTorch chosen here.
TORCH_SYS_VARS = (
    "LIBTORCH_USE_PYTORCH", "LIBTORCH_INCLUDE", "LIBTORCH_LIB", "LIBTORCH_STATIC",
    "LIBTORCH_BYPASS_VERSION_CHECK",
)  # fmt: skip
CALLERS_TEST = "callbench-callers-test"  # rust/kit/examples/callers_test_driver.rs
INSTALL_HINT = "install a Rust toolchain >= 1.92 (rustup, or your distribution's cargo and rustc)"

# Asks a Python for its torch's version and folder without importing torch
# (the environment holds only the libraries LibTorch's CPU part loads).
TORCH_PROBE = """
import importlib.metadata, importlib.util, json, os
spec = importlib.util.find_spec("torch")
if spec is None or not spec.submodule_search_locations:
    print(json.dumps({"error": "No module named 'torch'"}))
else:
    print(json.dumps({"version": importlib.metadata.version("torch").split("+")[0],
                      "root": os.path.realpath(spec.submodule_search_locations[0])}))
"""


def find_cargo() -> tuple[str, tuple[int, int]]:
    """Cargo's executable and its (major, minor) version."""
    cargo = shutil.which("cargo")
    if cargo is None:
        home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
        if (home / "bin" / "cargo").is_file():
            cargo = str(home / "bin" / "cargo")
    if cargo is None:
        raise BuildError(f"cargo not found: {INSTALL_HINT}")
    out = subprocess.run([cargo, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"(\d+)\.(\d+)", out.stdout)
    if out.returncode != 0 or match is None:
        raise BuildError(f"{cargo} --version failed: {INSTALL_HINT}")
    version = (int(match[1]), int(match[2]))
    if version < MIN_RUST:
        raise BuildError(f"{out.stdout.strip()} is too old: {INSTALL_HINT}")
    return cargo, version


def find_uv() -> list[str]:
    """uv's command: on PATH (as in nox sessions), or the uv package of this Python."""
    uv = shutil.which("uv")
    if uv is not None:
        return [uv]
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv"]
    raise BuildError("uv not found: pip install uv")


def uv_run(uv: list[str], command: str, *args: str) -> None:
    """Run `uv COMMAND ARGS` quietly; its last line of complaint is the reason when it fails."""
    result = subprocess.run(
        [*uv, *command.split(), "--quiet", *args], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        raise BuildError(f"uv {command} failed: {lines[-1] if lines else result.returncode}")


def provision_tch_python() -> Path:
    """The tch environment's Python, installed from rust/tch-python.lock unless it already is."""
    python = TCH_VENV / "bin" / "python"
    lock = TCH_LOCK.read_text()
    if python.is_file() and TCH_STAMP.is_file() and TCH_STAMP.read_text() == lock:
        return python
    uv = find_uv()
    where = f"{TCH_LOCK.relative_to(REPO_ROOT)} into {TCH_VENV}"
    print(f"build_rust: installing {where} (torch is a large download the first time)", flush=True)
    started = time.monotonic()
    TCH_STAMP.unlink(missing_ok=True)
    uv_run(uv, "venv", "--clear", "--python", sys.executable, str(TCH_VENV))
    # sync installs exactly the lock, no resolution: the lock leaves out torch's other dependencies.
    uv_run(uv, "pip sync", "--python", str(python), str(TCH_LOCK))
    TCH_STAMP.write_text(lock)
    print(f"build_rust: tch environment ready in {time.monotonic() - started:.1f} s", flush=True)
    return python


def tch_python() -> tuple[str | None, str]:
    """The Python whose torch gives LibTorch: CALLBENCH_TCH_PYTHON or our own; or None and why."""
    named = os.environ.get("CALLBENCH_TCH_PYTHON")
    if named:
        return named, ""
    try:
        return str(provision_tch_python()), ""
    except (BuildError, OSError) as exc:
        return None, (
            f"could not provision {TCH_VENV} for LibTorch {TCH_LIBTORCH} "
            f"({exc}); set CALLBENCH_TCH_PYTHON to a Python with torch=={TCH_LIBTORCH}"
        )


def tch_setup() -> tuple[dict[str, str] | None, str]:
    """The environment that builds the tch drivers, or None and why not."""
    python, why_not = tch_python()
    if python is None:
        return None, why_not
    probe = subprocess.run([python, "-c", TORCH_PROBE], capture_output=True, text=True, check=False)
    try:
        torch = json.loads(probe.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return None, f"{python} could not be asked for its torch: {probe.stderr.strip()[-200:]}"
    if "error" in torch:
        return None, f"{python} has no torch ({torch['error']}); tch needs torch=={TCH_LIBTORCH}"
    if torch["version"] != TCH_LIBTORCH:
        return None, (
            f"tch 0.26.0 builds only against LibTorch {TCH_LIBTORCH}, and {python} has torch "
            f"{torch['version']} (torch-sys compiles with -std=c++17, which torch 2.15's headers "
            f"reject, and calls functions 2.15 removed): unset CALLBENCH_TCH_PYTHON, or point it "
            f"at a Python with torch=={TCH_LIBTORCH}"
        )
    point(DEPS / "libtorch", Path(torch["root"]))
    env = {
        # The wheel's torch folder is laid out as LibTorch is (include/, lib/),
        # so torch-sys needs neither Python nor `import torch`.
        "LIBTORCH": str(DEPS / "libtorch"),
        "LIBTORCH_CXX11_ABI": "1",  # the torch 2.13 wheels' C++ ABI (torch-sys cannot ask)
        "CALLBENCH_LIBTORCH_VERSION": torch["version"],
        "CALLBENCH_LIBTORCH_LIB": str(DEPS / "libtorch" / "lib"),
    }
    return env, ""


def record_skipped(reasons: dict[str, str]) -> None:
    """build/rust/skipped.json: driver id -> why it was not built; stale binaries go."""
    TARGET.mkdir(parents=True, exist_ok=True)
    SKIPPED.write_text(json.dumps(reasons, indent=2, sort_keys=True) + "\n")
    for driver_id in reasons:
        (BIN_DIR / driver_id).unlink(missing_ok=True)


def copy_binaries(left_out: dict[str, str], built_now: set[str]) -> None:
    """The drivers just built, from the shared Cargo folder into this clone's BIN_DIR (only
    those: the folder also holds what other clones built)."""
    BIN_DIR.mkdir(parents=True, exist_ok=True)
    built = CARGO_TARGET / "release"
    for binary in built.glob("rust-*"):
        if binary.is_file() and not binary.suffix:
            if binary.name in left_out or binary.name not in built_now:
                continue
            tmp = BIN_DIR / (binary.name + ".tmp")
            shutil.copy2(binary, tmp)
            tmp.replace(BIN_DIR / binary.name)


def binaries(manifest: Path) -> dict[str, list[str]]:
    """Each driver binary of a Cargo.toml and the features it requires."""
    with manifest.open("rb") as file:
        bins = tomllib.load(file).get("bin", [])
    return {b["name"]: b.get("required-features", []) for b in bins}


def chosen(asked: list[str]) -> set[str]:
    """The driver binaries to build: those asked for (every one when none is), each known."""
    every = {*binaries(SOURCE / "drivers" / "Cargo.toml"), *BURN_DRIVERS}
    unknown = sorted(set(asked) - every)
    if unknown:
        raise BuildError(f"no Rust driver {', '.join(unknown)} (rust/*/Cargo.toml's [[bin]])")
    return set(asked) or every


def run(command: list[str], env: dict[str, str], cwd: Path = SOURCE) -> None:
    _build.run(*command, cwd=cwd, env=env, what=" ".join(command[1:3]))


def build(args: argparse.Namespace) -> str:
    cargo, version = find_cargo()
    wanted = chosen(args.driver)
    drivers = binaries(SOURCE / "drivers" / "Cargo.toml")
    env = {name: value for name, value in os.environ.items() if name not in TORCH_SYS_VARS}
    env.update(CARGO_TARGET_DIR=str(CARGO_TARGET), CARGO_BUILD_JOBS=str(args.jobs))
    # Only what the chosen drivers need: LibTorch is provisioned only for a tch driver.
    needed = {f for driver_id in wanted for f in drivers.get(driver_id, [])}
    features = [f for f in ("ort", "tract", "candle") if f in needed or args.test or args.lint]
    left_out: dict[str, str] = {}
    if "tch" in needed or args.test or args.lint:
        tch_env, why_not = tch_setup()
        if tch_env is None:
            left_out.update({driver_id: why_not for driver_id in TCH_DRIVERS})
            print(f"build_rust: tch drivers skipped: {why_not}", file=sys.stderr)
        else:
            env.update(tch_env)
            features.append("tch")
    burn = version >= BURN_MIN_RUST and bool(wanted & set(BURN_DRIVERS))
    if version < BURN_MIN_RUST:
        too_old = (f"burn 0.22.1 needs Rust >= {'.'.join(map(str, BURN_MIN_RUST))}, "
                   f"this is {'.'.join(map(str, version))}: {INSTALL_HINT}")  # fmt: skip
        left_out.update({driver_id: too_old for driver_id in BURN_DRIVERS})
        print(f"build_rust: burn skipped: {too_old}", file=sys.stderr)
    record_skipped(left_out)
    selected = [
        "--workspace", "--locked", "--no-default-features",
        "--features", ",".join(f"callbench-drivers/{feature}" for feature in features),
    ]  # fmt: skip
    if args.lint:
        run([cargo, "fmt", "--all", "--check"], env)
        clippy = [cargo, "clippy", "--release", "--all-targets", *selected]
        run([*clippy, "--", "-D", "warnings"], env)
        if burn:
            run([cargo, "fmt", "--all", "--check"], env, cwd=BURN)
            run([cargo, "clippy", "--release", "--all-targets", "--locked", "--", "-D",
                 "warnings"], env, cwd=BURN)  # fmt: skip
    # The tch binaries apart: built with the others, every binary of the crate
    # would need LibTorch's libraries to start, the ONNX Runtime ones included.
    untied = ",".join(f"callbench-drivers/{f}" for f in features if f != "tch")
    plain = sorted(d for d in wanted & set(drivers) if "tch" not in drivers[d])
    bins = [arg for driver_id in plain for arg in ("--bin", driver_id)]
    if plain:
        chosen_features = ["--features", untied] if untied else []
        run([cargo, "build", "--release", "--workspace", "--locked", "--no-default-features",
             *chosen_features, *bins], env)  # fmt: skip
    tch = sorted(wanted & set(TCH_DRIVERS)) if "tch" in features else []
    if tch:
        bins = [arg for driver_id in tch for arg in ("--bin", driver_id)]
        only = ["-p", "callbench-drivers", "--locked", "--no-default-features",
                "--features", "callbench-drivers/tch", *bins]  # fmt: skip
        run([cargo, "build", "--release", *only], env)
    if burn:
        run([cargo, "build", "--release", "--locked", "--bins"], env, cwd=BURN)
    copy_binaries(left_out, {*plain, *tch, *(BURN_DRIVERS if burn else ())})
    if args.test:
        run([cargo, "test", "--release", *selected], env)
        build_callers_test(cargo, env)
    return f"drivers in {BIN_DIR}"


def build_callers_test(cargo: str, env: dict[str, str]) -> None:
    """The kit's callers test driver (rust/kit/examples/), which the conformance test
    runs (contract 4), into BIN_DIR beside the drivers."""
    run([cargo, "build", "--release", "--locked", "-p", "callbench-kit", "--example",
         CALLERS_TEST], env)  # fmt: skip
    built = CARGO_TARGET / "release" / "examples" / CALLERS_TEST
    BIN_DIR.mkdir(parents=True, exist_ok=True)
    tmp = BIN_DIR / (CALLERS_TEST + ".tmp")
    shutil.copy2(built, tmp)
    tmp.replace(BIN_DIR / CALLERS_TEST)


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--driver", action="append", default=[],
                        help="build only this driver (repeatable); default: every one")  # fmt: skip


if __name__ == "__main__":
    sys.exit(
        _build.main(
            "build_rust",
            __doc__,
            build,
            test_help="run cargo test too",
            lint_help="run cargo fmt --check and clippy",
            more_options=options,
        )
    )
