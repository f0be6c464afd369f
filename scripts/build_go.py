"""Build the Go drivers (go/) into build/go/bin/<id>; --test runs go test, --lint gofmt + go vet.

Each driver is go/cmd/<driver-id>/main.go. The modules come from the Go module
proxy, pinned by go/go.mod and go/go.sum (the default module cache,
~/go/pkg/mod, holds them). onnxruntime_go needs cgo and a C compiler; it
opens libonnxruntime at run time (CALLBENCH_ONNXRUNTIME_LIB), so the build
itself needs no ONNX Runtime.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE = REPO_ROOT / "go"
BIN = REPO_ROOT / "build" / "go" / "bin"

TOOLS = {
    "go": "Go >= 1.26 (https://go.dev/doc/install)",
    "gcc": "a C compiler for cgo (apt-get install gcc)",
}


class BuildError(Exception):
    """A one-line reason the build cannot go on."""


def require_tools() -> None:
    for tool, what in TOOLS.items():
        if tool == "gcc" and os.environ.get("CC"):
            tool = os.environ["CC"].split()[0]
        if shutil.which(tool) is None:
            raise BuildError(f"{tool} not found: install {what}")


def run(*command: str | Path, capture: bool = False) -> str:
    print("+", " ".join(str(c) for c in command), flush=True)
    env = {**os.environ, "CGO_ENABLED": "1"}
    result = subprocess.run(
        [str(c) for c in command], cwd=SOURCE, env=env, check=False,
        stdout=subprocess.PIPE if capture else None, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        what = " ".join(str(c) for c in command[:2])
        raise BuildError(f"{what} failed (exit {result.returncode})")
    return result.stdout or ""


def lint() -> None:
    unformatted = run("gofmt", "-l", ".", capture=True).split()
    if unformatted:
        raise BuildError(f"gofmt: not formatted: {' '.join(unformatted)} (run gofmt -w go/)")
    run("go", "vet", "./...")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="run go test ./... too")
    parser.add_argument("--lint", action="store_true", help="run gofmt -l and go vet too")
    args = parser.parse_args(argv)
    try:
        require_tools()
        BIN.mkdir(parents=True, exist_ok=True)
        run("go", "build", "-o", BIN, "./cmd/...")
        if args.test:
            run("go", "test", "./...")
        if args.lint:
            lint()
    except BuildError as exc:
        print(f"build_go: error: {exc}", file=sys.stderr)
        return 1
    print(f"build_go: drivers in {BIN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
