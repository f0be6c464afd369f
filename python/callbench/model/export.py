"""`nox -s export`: train the reference MLP and write the artifact set to models/.

Same versions, same bytes: training is seeded and single-threaded, the inputs
come from a seeded generator, and the manifest holds no timestamps. The one
exception is the AOTInductor package, which holds machine code compiled for
this CPU and paths of this environment: its manifest entry says
``"reproducible": false`` and why (see ``exported_programs``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import torch

from callbench.errors import UsageError
from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.model import iree_model, litert_model
from callbench.model.export_family import FAMILY_FIT_LIMIT, export_family, parse_widths
from callbench.model.export_options import HASH_SEED, add_arguments
from callbench.model.portable import (
    INPUT_SEED,
    describe,
    make_inputs,
    portable_blobs,
    quiet_exporters,
    write_blobs,
)
from callbench.model.training import TrainConfig, train


def written(out: Path, name: str, artifact: deploy.Artifact) -> dict[str, Any]:
    """``artifact`` written to ``out/name``; its manifest entry."""
    art.write_atomic(out / name, artifact.data)
    print(f"{name}: {len(artifact.data):,} bytes in {artifact.seconds:.1f} s", flush=True)
    return {"bytes": len(artifact.data), "sha256": art.sha256_of(out / name), "shape": [],
            **artifact.fields}  # fmt: skip


def export(out: Path, samples: int, config: TrainConfig) -> dict[str, Any]:
    """The reference model (2-8-8-1) in every format, AOTInductor, ExecuTorch,
    LiteRT and IREE included."""
    quiet_exporters()
    torch.set_num_threads(1)
    model, fit_rmse = train(config)
    seconds: dict[str, float] = {}
    files = write_blobs(out, portable_blobs(model, make_inputs(samples, INPUT_SEED), seconds))
    # torch.export-based artifacts: AOTInductor compiles with g++, ExecuTorch lowers.
    compiled = {deploy.AOTI_PACKAGE: deploy.aoti_package(model)}
    if torch.cuda.is_available():  # python-aoti-cuda's package: on a GPU host only
        compiled[deploy.AOTI_CUDA_PACKAGE] = deploy.aoti_cuda_package(model)
    compiled.update(deploy.executorch_programs(model))
    # LiteRT's flatbuffer, written from the weights with LiteRT's own schema.
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    compiled[litert_model.TFLITE] = litert_model.artifact(state)
    # IREE's module, compiled from the ONNX file written above.
    compiled[iree_model.VMFB] = iree_model.vmfb(out / art.ONNX)
    for name, artifact in compiled.items():
        files[name] = written(out, name, artifact)
        seconds[name] = artifact.seconds
    manifest = {**describe(model, samples, config, fit_rmse), "files": files}
    art.write_atomic(out / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    art.write_atomic(out / art.EXPORT_SECONDS, (json.dumps(seconds, indent=2) + "\n").encode())
    return manifest


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:  # see export_options
        env = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
        os.execve(sys.executable, [sys.executable, "-m", "callbench.model.export", *args_in], env)
    parser = argparse.ArgumentParser(prog="callbench export", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(args_in)
    try:
        widths = parse_widths(args.widths)
    except UsageError as exc:
        parser.error(str(exc))
    manifest = export(args.out, args.samples, TrainConfig())
    family = export_family(args.out, widths, args.samples)
    print(
        f"wrote {len(manifest['files']) + 1} files to {args.out}/ "
        f"(fit RMSE {manifest['fit_rmse']:.4f} on held-out points)"
    )
    if manifest["fit_rmse"] >= 0.1:
        print(f"error: fit RMSE {manifest['fit_rmse']:.4f} is not below 0.1", file=sys.stderr)
        return 1
    for width in family["widths"]:
        if width["fit_rmse"] >= FAMILY_FIT_LIMIT:
            print(f"error: width {width['hidden']}: fit RMSE {width['fit_rmse']:.4f} is not "
                  f"below {FAMILY_FIT_LIMIT}", file=sys.stderr)  # fmt: skip
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
