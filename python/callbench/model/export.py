"""`nox -s export`: train the reference MLP and write the artifact set to models/.

Same versions, same bytes: training is seeded and single-threaded, the inputs
come from a seeded generator, and the manifest holds no timestamps. The one
exception is the AOTInductor package, which holds machine code compiled for
this CPU and paths of this environment: its manifest entry says
``"reproducible": false`` and why (see ``exported_programs``).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from callbench.errors import UsageError
from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.model.architecture import (
    FAMILY_WIDTHS,
    layers,
    weight_count,
)
from callbench.model.mlp import MLP
from callbench.model.training import HIGH, LOW, TrainConfig, train

SAMPLES = 1_000_000
INPUT_SEED = 1_000_003
ONNX_OPSET = 18


def make_inputs(n: int, seed: int) -> np.ndarray:
    """n x 2 float32 uniform in [LOW, HIGH), drawn directly in float32."""
    rng = np.random.Generator(np.random.PCG64(seed))
    x = rng.random((n, 2), dtype=np.float32) * np.float32(HIGH - LOW) + np.float32(LOW)
    # Rounding may land on HIGH itself; keep the interval half-open.
    top = np.nextafter(np.float32(HIGH), np.float32(0))
    clipped: np.ndarray = np.minimum(x, top)
    return clipped


def reference_outputs(model: MLP, inputs: np.ndarray, chunk: int = 1 << 16) -> np.ndarray:
    out = np.empty((len(inputs), 1), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, len(inputs), chunk):
            x = torch.from_numpy(inputs[start : start + chunk])
            out[start : start + chunk] = model(x).numpy()
    return out


def state_dict_bytes(model: MLP) -> bytes:
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getvalue()


def torchscript_bytes(model: MLP) -> bytes:
    scripted = torch.jit.script(model)
    buffer = io.BytesIO()
    torch.jit.save(scripted, buffer)
    return buffer.getvalue()


def onnx_bytes(model: MLP) -> bytes:
    import onnx

    example = torch.zeros(4, 2)
    program = torch.onnx.export(
        model,
        (example,),
        input_names=["x"],
        output_names=["y"],
        dynamic_shapes={"x": {0: torch.export.Dim("batch")}},
        opset_version=ONNX_OPSET,
        dynamo=True,
        verbose=False,
    )
    assert program is not None
    proto = program.model_proto
    # The dynamo exporter names the batch axis after the Dim; DESIGN.md names it "batch".
    for value in (*proto.graph.input, *proto.graph.output):
        value.type.tensor_type.shape.dim[0].dim_param = "batch"
    onnx.checker.check_model(proto, full_check=True)
    return bytes(proto.SerializeToString())


def hidden_of(model: MLP) -> int:
    return int(model.a.out_features)


def weights_bytes(model: MLP) -> bytes:
    """The weights as raw float32 in layer order, for runtimes that cannot read a pickle."""
    state = model.state_dict()
    parts = [
        state[f"{name}.{kind}"].numpy().ravel()
        for name, _, _ in layers(hidden_of(model))
        for kind in ("weight", "bias")
    ]
    return np.concatenate(parts).astype("<f4").tobytes()


def versions() -> dict[str, str]:
    import onnx
    import onnxruntime

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "onnx": onnx.__version__,
        "onnxruntime": onnxruntime.__version__,
        **deploy.versions(),
    }


def quiet_exporters() -> None:
    """TorchScript is deprecated upstream but is exactly what the Java and C++ rows load;
    the ONNX exporter's notes about torchvision do not concern this model."""
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"torch\.jit")
    logging.getLogger("torch.onnx").setLevel(logging.ERROR)


Blobs = dict[str, tuple[bytes, list[int], str]]


def portable_blobs(model: MLP, inputs: np.ndarray, seconds: dict[str, float]) -> Blobs:
    """The formats every width is written in, with the inputs and their reference outputs;
    ``seconds`` gets how long each format took to write."""
    reference = reference_outputs(model, inputs)

    def timed(name: str, write: Callable[[MLP], bytes]) -> bytes:
        start = time.perf_counter()
        data = write(model)
        seconds[name] = time.perf_counter() - start
        return data

    samples, count = len(inputs), weight_count(hidden_of(model))
    return {
        art.STATE_DICT: (timed(art.STATE_DICT, state_dict_bytes), [], "torch.save"),
        art.TORCHSCRIPT: (timed(art.TORCHSCRIPT, torchscript_bytes), [], "torch.jit.save"),
        art.ONNX: (timed(art.ONNX, onnx_bytes), [], f"onnx opset {ONNX_OPSET}"),
        art.WEIGHTS: (timed(art.WEIGHTS, weights_bytes), [count], "float32-le"),
        art.INPUTS: (inputs.astype("<f4").tobytes(), [samples, 2], "float32-le"),
        art.REFERENCE: (reference.astype("<f4").tobytes(), [samples, 1], "float32-le"),
    }


def write_blobs(out: Path, blobs: Blobs) -> dict[str, Any]:
    """Each blob as a file of ``out``, and its manifest entry."""
    files: dict[str, Any] = {}
    for name, (data, shape, fmt) in blobs.items():
        art.write_atomic(out / name, data)
        files[name] = {
            "bytes": len(data),
            "sha256": art.sha256_of(out / name),
            "shape": shape,
            "format": fmt,
            "reproducible": True,
        }
    return files


def describe(model: MLP, samples: int, config: TrainConfig, fit_rmse: float) -> dict[str, Any]:
    """The manifest's words on the model, the same for every width."""
    hidden = hidden_of(model)
    return {
        "model": f"MLP 2-{hidden}-{hidden}-1 ReLU, fit to |x1| + x2 on [-10, 10)^2",
        "state_dict_keys": {k: list(v.shape) for k, v in model.state_dict().items()},
        "weights_order": [f"{n}.{k}" for n, _, _ in layers(hidden) for k in ("weight", "bias")],
        "onnx": {"input": "x", "output": "y", "opset": ONNX_OPSET},
        "samples": samples,
        "input_seed": INPUT_SEED,
        "input_range": [LOW, HIGH],
        "training": config.as_dict(),
        "fit_rmse": fit_rmse,
        "versions": versions(),
    }


def export(out: Path, samples: int, config: TrainConfig) -> dict[str, Any]:
    """The reference model (2-8-8-1) in every format, AOTInductor and ExecuTorch included."""
    quiet_exporters()
    torch.set_num_threads(1)
    model, fit_rmse = train(config)
    seconds: dict[str, float] = {}
    files = write_blobs(out, portable_blobs(model, make_inputs(samples, INPUT_SEED), seconds))
    # torch.export-based artifacts: AOTInductor compiles with g++, ExecuTorch lowers.
    compiled = {deploy.AOTI_PACKAGE: deploy.aoti_package(model)}
    compiled.update(deploy.executorch_programs(model))
    for name, artifact in compiled.items():
        art.write_atomic(out / name, artifact.data)
        files[name] = {
            "bytes": len(artifact.data),
            "sha256": art.sha256_of(out / name),
            "shape": [],
            **artifact.fields,
        }
        seconds[name] = artifact.seconds
        print(f"{name}: {len(artifact.data):,} bytes in {artifact.seconds:.1f} s", flush=True)
    manifest = {**describe(model, samples, config, fit_rmse), "files": files}
    art.write_atomic(out / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    art.write_atomic(out / art.EXPORT_SECONDS, (json.dumps(seconds, indent=2) + "\n").encode())
    return manifest


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if os.environ.get("PYTHONHASHSEED") != "0":
        # TorchScript names the three Linear types in an order that follows
        # Python's randomised string hashing; a fixed seed fixes the bytes.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        os.execve(sys.executable, [sys.executable, "-m", "callbench.model.export", *args_in], env)
    from callbench.model.export_family import FAMILY_FIT_LIMIT, export_family, parse_widths

    parser = argparse.ArgumentParser(prog="callbench export", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("models"), help="artifact folder")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="inputs to write")
    parser.add_argument(
        "--widths", default=",".join(map(str, FAMILY_WIDTHS)),
        help="hidden widths of the model family besides the reference's 8, comma-separated "
             "('' for none; default %(default)s): models/widths/<H>/, listed in family.json",
    )  # fmt: skip
    args = parser.parse_args(args_in)
    if args.samples < 1:
        parser.error("--samples must be at least 1")
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
