"""Go drivers: commands of the Go module in go/ (go/cmd/<id>/), built into build/go/bin/."""

from __future__ import annotations

from dataclasses import replace

from callbench.languages.binaries import binary_driver
from callbench.languages.native import onnxruntime_env
from callbench.languages.spec import DriverSpec
from callbench.paths import BUILD, REPO_ROOT

LANGUAGE = "Go"
BIN_DIR = BUILD / "go" / "bin"
HINT = "run `nox -s bench-go` (or `callbench build go`)"


def driver(driver_id: str, runtime: str, artifact: str) -> DriverSpec:
    spec = binary_driver(
        driver_id, LANGUAGE, runtime, artifact,
        bin_dir=BIN_DIR,
        source=REPO_ROOT / "go" / "cmd" / driver_id / "main.go",
        toolchain=("go",),
        install="Go (go.dev, or apt-get install golang)",
        hint=HINT,
    )  # fmt: skip
    return replace(spec, env=onnxruntime_env)
