"""A model the user brings (``--onnx PATH``): checked, then made into an artifact set.

The folder it writes has the shape of models/ for the ONNX drivers: the model
(under the contract's name ``mlp.onnx``), ``inputs.f32`` ``[N, F]``,
``reference.f32`` ``[N, O]`` and a manifest naming the user's file, its sha256,
its input and output names and shapes, opset and producer, and the tolerance a
driver must meet. Every check runs before anything is written: a rejected
model is one line naming the file, and no run folder.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model import artifacts as art
from callbench.model.user_onnx_graph import SIZE_LIMIT, Signature, load, reject, signature

# Generated inputs: this many samples, fewer for wide inputs (at most 64 MiB of them).
SAMPLES = 100_000
INPUT_BYTES = 64 * 1024 * 1024
INPUT_SEED = 0
# Samples the onnx package's reference evaluator recomputes to cross-check ONNX Runtime.
CROSS_CHECK = 8
# A driver's outputs may differ from the reference by float32 rounding of another
# summation order or another kernel: relative to the outputs' magnitude.
RELATIVE_TOLERANCE = 1e-4
FOLDER = "model"
ORIGIN = "user_model"


def read_inputs(path: Path, features: int) -> np.ndarray:
    """``--inputs FILE.npy``: [N, F] real numbers, as float32; never unpickled."""
    if not path.is_file():
        raise reject(path, "no such file")
    try:
        data = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise reject(path, f"not a .npy array ({first_line(exc)})") from None
    if not isinstance(data, np.ndarray) or data.ndim != 2 or data.shape[1] != features:
        shape = getattr(data, "shape", None)
        raise reject(path, f"has shape {shape}; the model takes [N, {features}]")
    if data.shape[0] == 0 or not np.issubdtype(data.dtype, np.number):
        raise reject(path, f"holds {data.shape[0]} samples of {data.dtype}; need real numbers")
    inputs = np.ascontiguousarray(data, dtype=np.float32)
    if not np.isfinite(inputs).all():
        raise reject(path, "holds NaN or Inf")
    return inputs


def generated_inputs(features: int) -> np.ndarray:
    samples = max(1, min(SAMPLES, INPUT_BYTES // (4 * features)))
    rng = np.random.default_rng(INPUT_SEED)
    return rng.uniform(-1.0, 1.0, size=(samples, features)).astype(np.float32)


def reference_outputs(path: Path, data: bytes, sig: Signature, inputs: np.ndarray) -> np.ndarray:
    """ONNX Runtime's CPU provider with every graph optimisation off, [N, O] float32."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    try:
        session = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
        step = 1 if sig.batch == 1 else 4096
        parts = [
            session.run([sig.output_name], {sig.input_name: inputs[i : i + step]})[0]
            for i in range(0, len(inputs), step)
        ]
    except Exception as exc:  # ORT raises its own Fail/InvalidGraph/NotImplemented types
        raise reject(path, f"ONNX Runtime cannot run it ({first_line(exc)})") from None
    out = np.concatenate(parts).astype(np.float32)
    if out.shape != (len(inputs), *sig.output_shape):
        raise reject(
            path, f"output {sig.output_name!r} came back {out.shape[1:]} per sample, "
            f"the model declares {sig.output_shape}",
        )  # fmt: skip
    out = out.reshape(len(inputs), sig.output_width)
    if not np.isfinite(out).all():
        bad = int(np.flatnonzero(~np.isfinite(out).all(axis=1))[0])
        raise reject(path, f"gives NaN or Inf for sample {bad} of the inputs")
    return out


def cross_check(path: Path, model: Any, sig: Signature, inputs: np.ndarray, want: np.ndarray,
                tolerance: float) -> str:  # fmt: skip
    """The first samples again through the onnx package's reference evaluator."""
    from onnx.reference import ReferenceEvaluator

    try:
        evaluator = ReferenceEvaluator(model)
        rows = []
        for i in range(min(CROSS_CHECK, len(inputs))):
            answer: Any = evaluator.run([sig.output_name], {sig.input_name: inputs[i : i + 1]})
            rows.append(np.asarray(answer[0], dtype=np.float32).reshape(sig.output_width))
        got = np.stack(rows)
    except Exception as exc:  # an operator the evaluator lacks: say so, the run goes on
        return f"skipped: the onnx reference evaluator cannot run it ({first_line(exc)})"
    diff = np.abs(got.astype(np.float64) - want[: len(got)].astype(np.float64))
    if not (diff <= tolerance).all():
        raise reject(
            path, f"ONNX Runtime and the onnx reference evaluator disagree by {diff.max():.3g} "
            f"(tolerance {tolerance:.3g}); the reference would not be trustworthy",
        )  # fmt: skip
    return f"agrees on the first {len(got)} samples within {diff.max():.3g}"


def tolerance_of(reference: np.ndarray) -> float:
    """RELATIVE_TOLERANCE x the largest |reference output| (at least 1)."""
    return RELATIVE_TOLERANCE * max(1.0, float(np.abs(reference).max()))


def opset(model: Any) -> int | None:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def prepare(path: Path, inputs_path: Path | None = None, limit: int = SIZE_LIMIT) -> Path:
    """The checked artifact set in a temporary folder (the caller moves it beside the run)."""
    model, data = load(path, limit)
    sig = signature(path, model)
    inputs = (
        read_inputs(inputs_path, sig.features) if inputs_path else generated_inputs(sig.features)
    )
    reference = reference_outputs(path, data, sig, inputs)
    tolerance = tolerance_of(reference)
    agreement = cross_check(path, model, sig, inputs, reference, tolerance)
    folder = Path(tempfile.mkdtemp(prefix="callbench-onnx-"))
    files = {art.ONNX: data, art.INPUTS: inputs.tobytes(), art.REFERENCE: reference.tobytes()}
    shapes: dict[str, list[int]] = {
        art.ONNX: [],
        art.INPUTS: list(inputs.shape),
        art.REFERENCE: list(reference.shape),
    }
    for name, blob in files.items():
        (folder / name).write_bytes(blob)
    manifest = {
        "model": f"{path.name} (brought by the user)",
        ORIGIN: {
            "file": path.name,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "input": {"name": sig.input_name, "shape": [sig.batch, sig.features]},
            "output": {"name": sig.output_name, "shape": [sig.batch, *sig.output_shape]},
            "opset": opset(model),
            "ir_version": model.ir_version,
            "producer": f"{model.producer_name} {model.producer_version}".strip() or None,
            "inputs_from": str(inputs_path.name)
            if inputs_path
            else f"seeded uniform in [-1, 1), seed {INPUT_SEED}",
            "reference": "ONNX Runtime CPU provider, graph optimizations off",
            "cross_check": agreement,
            "tolerance_rule": f"{RELATIVE_TOLERANCE:g} x max(1, largest |reference output|)",
        },
        "signature": asdict(sig),
        "tolerance": tolerance,
        "samples": len(inputs),
        "files": {
            name: {
                "sha256": hashlib.sha256(blob).hexdigest(),
                "bytes": len(blob),
                "shape": shapes[name],
                "dtype": "float32",
            }
            for name, blob in files.items()
        },
    }
    from callbench.records.store import write_json

    write_json(folder / art.MANIFEST, manifest)
    return folder


def place(folder: Path, run_dir: Path) -> Path:
    """Move the prepared artifact set into the run folder, beside its records."""
    target = run_dir / FOLDER
    if target.exists():
        shutil.rmtree(target)
    shutil.move(str(folder), str(target))
    return target
