"""The portable artifacts of one trained MLP: its inputs, reference outputs, state_dict,
TorchScript, ONNX and raw weights as bytes, written with their manifest entries.

Same versions, same bytes, wherever the clone lies: the inputs come from a seeded
generator, the manifest holds no timestamps, and ONNX and TorchScript hold no path
(path_free).
"""

from __future__ import annotations

import io
import logging
import platform
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.model.architecture import (
    MLP_SIGNATURE,
    layers,
    weight_count,
)
from callbench.model.mlp import MLP
from callbench.model.path_free import onnx_without_stack_traces, torchscript_without_debug_records
from callbench.model.tensors import MANIFEST_KEY
from callbench.model.training import HIGH, LOW, TrainConfig

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
    return torchscript_without_debug_records(buffer.getvalue())


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
    return bytes(onnx_without_stack_traces(proto).SerializeToString())


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
        MANIFEST_KEY: MLP_SIGNATURE.to_json(),
        "samples": samples,
        "input_seed": INPUT_SEED,
        "input_range": [LOW, HIGH],
        "training": config.as_dict(),
        "fit_rmse": fit_rmse,
        "versions": versions(),
    }
