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
import sys

import _build
from _build import BuildError

REPO_ROOT = _build.REPO_ROOT
SOURCE = REPO_ROOT / "go"
BIN = REPO_ROOT / "build" / "go" / "bin"

TOOLS = {
    "go": "Go >= 1.26 (https://go.dev/doc/install)",
    "gcc": "a C compiler for cgo (apt-get install gcc)",
}


def require_tools() -> None:
    tools = dict(TOOLS)
    if os.environ.get("CC"):  # cgo compiles with $CC
        tools[os.environ["CC"].split()[0]] = tools.pop("gcc")
    _build.require(tools)


def run(*words: str, capture: bool = False) -> str:
    env = {**os.environ, "CGO_ENABLED": "1"}
    return _build.run(*words, cwd=SOURCE, env=env, capture=capture, what=" ".join(words[:2]))


def lint() -> None:
    unformatted = run("gofmt", "-l", ".", capture=True).split()
    if unformatted:
        raise BuildError(f"gofmt: not formatted: {' '.join(unformatted)} (run gofmt -w go/)")
    run("go", "vet", "./...")


def build(args: argparse.Namespace) -> str:
    require_tools()
    BIN.mkdir(parents=True, exist_ok=True)
    run("go", "build", "-o", str(BIN), "./cmd/...")
    if args.test:
        run("go", "test", "./...")
        # The kit's callers test driver, which the conformance test runs (contract 4).
        test_driver = "callbench-callers-test"
        run("go", "build", "-o", str(BIN / test_driver), f"./tests/{test_driver}")
    if args.lint:
        lint()
    return f"drivers in {BIN}"


if __name__ == "__main__":
    sys.exit(
        _build.main(
            "build_go",
            __doc__,
            build,
            test_help="run go test ./... too",
            lint_help="run gofmt -l and go vet too",
        )
    )
