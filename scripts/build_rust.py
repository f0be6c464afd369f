"""Build the Rust drivers (rust/) into build/rust/release/<driver-id>; --test also
runs `cargo test`, --lint `cargo fmt --check` and `cargo clippy -D warnings`.

Every crate comes from the Rust crate registry, pinned in rust/Cargo.lock; no
build step downloads anything else. ONNX Runtime is loaded at run time from
the file named by CALLBENCH_ONNXRUNTIME_LIB (the onnxruntime wheel's library).

The tch drivers (rust-tch, rust-tch-torchscript) link LibTorch, and the tch
crate accepts exactly one LibTorch version (TCH_LIBTORCH). They are built
only when a Python with that torch is at hand: CALLBENCH_TCH_PYTHON, or the
Python running this script. Otherwise they are left out and
build/rust/skipped.json says why, for the harness to record them skipped.
build/rust/deps/libtorch is a stable symlink to that torch's folder (the
binaries' RPATH points through it), as build_cpp.py does for C++.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE = REPO_ROOT / "rust"
TARGET = REPO_ROOT / "build" / "rust"
BIN_DIR = TARGET / "release"
DEPS = TARGET / "deps"
SKIPPED = TARGET / "skipped.json"

MIN_RUST = (1, 92)  # ort 2.0.0-rc.15 needs 1.92; tract-onnx 0.23.9 needs 1.91
TCH_LIBTORCH = "2.13.0"  # the only LibTorch tch 0.26.0 (torch-sys) accepts
TCH_DRIVERS = ("rust-tch", "rust-tch-torchscript")
INSTALL_HINT = "install a Rust toolchain >= 1.92 (rustup, or your distribution's cargo and rustc)"

# Asks a Python for its torch's version and folder, without failing when it has none.
TORCH_PROBE = """
import json
try:
    import torch
except ImportError as exc:
    print(json.dumps({"error": str(exc)}))
else:
    import os
    print(json.dumps({"version": torch.__version__.split("+")[0],
                      "root": os.path.dirname(os.path.realpath(torch.__file__))}))
"""


class BuildError(Exception):
    """A one-line reason the build cannot go on."""


def find_cargo() -> str:
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
    if (int(match[1]), int(match[2])) < MIN_RUST:
        raise BuildError(f"{out.stdout.strip()} is too old: {INSTALL_HINT}")
    return cargo


def point(link: Path, target: Path) -> None:
    """Make ``link`` a symlink to ``target``, touching nothing if it already is one."""
    if link.is_symlink() and link.readlink() == target:
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(link.name + ".tmp")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    tmp.replace(link)


def tch_setup() -> tuple[dict[str, str] | None, str]:
    """The environment that builds the tch drivers, or None and why not."""
    python = os.environ.get("CALLBENCH_TCH_PYTHON") or sys.executable
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
            f"reject, and calls functions 2.15 removed): set CALLBENCH_TCH_PYTHON to a Python "
            f"with torch=={TCH_LIBTORCH}"
        )
    root = Path(torch["root"])
    point(DEPS / "libtorch", root)
    bin_dir = str(Path(python).parent)
    env = {
        # torch-sys asks `python` (in a virtualenv) for LibTorch's paths and ABI.
        "LIBTORCH_USE_PYTORCH": "1",
        "VIRTUAL_ENV": str(Path(python).parent.parent),
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
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


def run(command: list[str], env: dict[str, str]) -> None:
    print("+", " ".join(command), flush=True)
    result = subprocess.run(command, cwd=SOURCE, env=env, check=False)
    if result.returncode != 0:
        raise BuildError(f"{' '.join(command[1:3])} failed (exit {result.returncode})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="run cargo test too")
    parser.add_argument("--lint", action="store_true", help="run cargo fmt --check and clippy")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("CALLBENCH_JOBS", "2")))
    args = parser.parse_args(argv)
    try:
        cargo = find_cargo()
        env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET), CARGO_BUILD_JOBS=str(args.jobs))
        tch_env, why_not = tch_setup()
        features = ["ort", "tract", "candle"]
        if tch_env is None:
            record_skipped({driver_id: why_not for driver_id in TCH_DRIVERS})
            print(f"build_rust: tch drivers skipped: {why_not}", file=sys.stderr)
        else:
            env.update(tch_env)
            features.append("tch")
            record_skipped({})
        selected = [
            "--workspace", "--locked", "--no-default-features",
            "--features", ",".join(f"callbench-drivers/{feature}" for feature in features),
        ]  # fmt: skip
        if args.lint:
            run([cargo, "fmt", "--all", "--check"], env)
            clippy = [cargo, "clippy", "--release", "--all-targets", *selected]
            run([*clippy, "--", "-D", "warnings"], env)
        run([cargo, "build", "--release", "--bins", *selected], env)
        if args.test:
            run([cargo, "test", "--release", *selected], env)
    except BuildError as exc:
        print(f"build_rust: error: {exc}", file=sys.stderr)
        return 1
    print(f"build_rust: drivers in {BIN_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
