"""A model the user brings (``--onnx PATH``): checked, then made into an artifact set.

The folder it writes has the shape of models/ for the ONNX drivers (contract 3):
the model (under the contract's name ``mlp.onnx``), one file of samples per
input and one of reference values per output (named by ``tensors.tensor_file``),
and a manifest naming the user's file, its sha256, each input and output
(name, dtype, shape), opset and producer, and each output's tolerance. Every
check runs before anything is written: a rejected model is one line naming the
file, and no run folder.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model import artifacts as art
from callbench.model import tensors as tn
from callbench.model import user_inputs, witnesses
from callbench.model.onnx_signature import (
    Declared,
    Dim,
    batch_of,
    declared,
    input_shapes,
    reject,
)
from callbench.model.user_onnx_graph import SIZE_LIMIT, load

# Samples a reference call takes at most (fewer where a sample is large: 16 MiB a call).
REFERENCE_STEP, REFERENCE_BYTES = 4096, 16 * 1024 * 1024
FOLDER = "model"
ORIGIN = "user_model"
# The manifest's word (under ORIGIN) that no witness agreed with the reference.
UNCONFIRMED = "reference_unconfirmed"
SAMPLES = user_inputs.SAMPLES
Arrays = Mapping[str, np.ndarray]


def made_from_program(manifest: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    """The artifacts table's entry for ``name`` (a user's program made into it: its status,
    and what it reaches), or None where the manifest has none (our MLP's export)."""
    made = ((manifest.get(ORIGIN) or {}).get("artifacts") or {}).get(name)
    return made if isinstance(made, dict) else None


def samples_for(
    path: Path, inputs_path: Path | None, inputs: list[Declared]
) -> dict[str, np.ndarray]:
    """The samples each input is called on: ``--inputs`` (.npz, or .npy for one input), or
    generated."""
    if inputs_path is None:
        return user_inputs.generated(inputs, input_shapes(path, inputs))
    fixed = {t.name: tuple(d if isinstance(d, int) else None for d in t.dims[1:]) for t in inputs}
    if inputs_path.suffix == ".npy" and inputs_path.is_file():
        if len(inputs) != 1:
            raise reject(inputs_path, f"is one array; the model has {len(inputs)} inputs: give "
                                      "an .npz of one array per input name")  # fmt: skip
        return user_inputs.from_npy(inputs_path, inputs[0], fixed[inputs[0].name])
    return user_inputs.from_npz(inputs_path, inputs, fixed)


def fit_batch(
    path: Path, batch: str | int, samples: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """A model fixed at batch n > 1 is called on whole batches: the samples cut to a multiple
    of n (at least one batch)."""
    count = len(next(iter(samples.values())))
    if not isinstance(batch, int) or batch == 1:
        return samples
    if count < batch:
        raise reject(path, f"takes batches of {batch}; the inputs hold {count} samples")
    whole = count - count % batch
    return {name: values[:whole] for name, values in samples.items()}


def reference_step(batch: str | int, samples: Arrays) -> int:
    """Samples a reference call takes: the fixed batch, else as many as fit the limits."""
    if isinstance(batch, int):
        return batch
    sample_bytes = sum(v[:1].nbytes for v in samples.values())
    return max(1, min(REFERENCE_STEP, REFERENCE_BYTES // max(1, sample_bytes)))


def reference_outputs(
    path: Path, data: bytes, outputs: list[Declared], batch: str | int, samples: Arrays
) -> dict[str, np.ndarray]:
    """ONNX Runtime's CPU provider with every graph optimisation off: each output
    ``[N, *shape]`` in its declared dtype, finite where a float."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    names = [o.name for o in outputs]
    count, step = len(next(iter(samples.values()))), reference_step(batch, samples)
    parts: dict[str, list[np.ndarray]] = {n: [] for n in names}
    try:
        session = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
        for i in range(0, count, step):
            answer = session.run(names, {k: v[i : i + step] for k, v in samples.items()})
            for name, values in zip(names, answer, strict=True):
                parts[name].append(np.asarray(values))
    except Exception as exc:  # ORT raises its own Fail/InvalidGraph/NotImplemented types
        raise reject(path, f"ONNX Runtime cannot run it ({first_line(exc)})") from None
    found = {}
    for out in outputs:
        shapes = {p.shape[1:] for p in parts[out.name]}
        got = parts[out.name][0]
        if len(shapes) != 1 or got.ndim != len(out.dims) or len(got) != min(step, count):
            declares = f"the model declares {list(out.dims)}"
            raise reject(path, f"output {out.name!r} came back {sorted(shapes)} per sample "
                               f"for batches of {step}; {declares}")  # fmt: skip
        if got.dtype != np.dtype(tn.DTYPES[out.dtype][0]).newbyteorder("="):
            raise reject(path, f"output {out.name!r} came back {got.dtype}, declared {out.dtype}")
        values = np.concatenate(parts[out.name])
        if out.dtype in tn.FLOATS and not np.isfinite(values).all():
            bad = int(np.flatnonzero(~np.isfinite(values.reshape(len(values), -1)).all(axis=1))[0])
            raise reject(path, f"output {out.name!r} is NaN or Inf for sample {bad} of the inputs")
        found[out.name] = values
    return found


def opset(model: Any) -> int | None:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def _port(t: Declared) -> dict[str, Any]:
    return {"name": t.name, "dtype": t.dtype, "shape": list(t.dims)}


@dataclass(frozen=True)
class Checked:
    """What preparing any user's model (``--onnx``, ``--torch``) establishes before its
    artifacts: the declared ports, the batch, the samples and the reference outputs; from
    them the signature, and the folder of contract 3 that holds them with the artifacts."""

    path: Path
    inputs: list[Declared]
    outputs: list[Declared]
    batch: Dim
    samples: Mapping[str, np.ndarray]
    reference: Mapping[str, np.ndarray]

    @cached_property
    def signature(self) -> tn.Signature:
        """Each input's sample shape, each output's with its tolerance from its reference."""
        samples, reference = self.samples, self.reference
        tolerances = {o.name: tn.relative_tolerance(o.dtype, reference[o.name])
                      for o in self.outputs}  # fmt: skip
        return tn.Signature(
            tn.tensors(tn.INPUTS_STEM, [(t.name, t.dtype, samples[t.name].shape[1:])
                                        for t in self.inputs]),
            tuple(
                tn.Tensor(o.name, o.dtype, t.shape, t.file, tolerances[o.name])
                for o, t in zip(self.outputs, tn.tensors(tn.REFERENCE_STEM, [
                    (o.name, o.dtype, reference[o.name].shape[1:]) for o in self.outputs]),
                    strict=True)
            ),
            self.batch if isinstance(self.batch, int) else str(self.batch),
        )  # fmt: skip

    def write(
        self, artifacts: Mapping[str, bytes], inputs_path: Path | None, about: Mapping[str, Any]
    ) -> Path:
        """A temporary folder (the caller moves it beside the run) holding ``artifacts`` (the
        user's file first), each input's samples and each output's reference, and the manifest:
        the user's file described under ``ORIGIN``, with ``about`` (what its kind adds)."""
        signature, samples, reference = self.signature, self.samples, self.reference
        data = next(iter(artifacts.values()))
        files = dict(artifacts)
        files.update({t.file: samples[t.name].tobytes() for t in signature.inputs})
        files.update({t.file: reference[t.name].tobytes() for t in signature.outputs})
        folder = Path(tempfile.mkdtemp(prefix="callbench-user-"))
        for name, blob in files.items():
            (folder / name).write_bytes(blob)
        shapes = {t.file: [len(samples[t.name]), *t.shape] for t in signature.inputs}
        shapes.update({t.file: [len(reference[t.name]), *t.shape] for t in signature.outputs})
        dtypes = {t.file: t.dtype for t in (*signature.inputs, *signature.outputs)}
        manifest = {
            "model": f"{self.path.name} (brought by the user)",
            ORIGIN: {
                "file": self.path.name,
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
                "inputs": [_port(t) for t in self.inputs],
                "outputs": [_port(o) for o in self.outputs],
                "batch": self.batch,
                "inputs_from": str(inputs_path.name) if inputs_path else user_inputs.GENERATED,
                **about,
                "tolerance_rule": (
                    f"float32 and float64 {tn.RELATIVE_TOLERANCE['float32']:g}, float16 "
                    f"{tn.RELATIVE_TOLERANCE['float16']:.3g}, x max(1, largest |reference "
                    "value|) of each output; integers and bool equal"
                ),
            },
            tn.MANIFEST_KEY: signature.to_json(),
            "tolerance": signature.outputs[0].tolerance,
            "samples": len(next(iter(samples.values()))),
            "files": {
                name: {
                    "sha256": hashlib.sha256(blob).hexdigest(),
                    "bytes": len(blob),
                    "shape": shapes.get(name, []),
                    # An artifact's dtype is its format, named by its extension.
                    "dtype": dtypes.get(name, name.rsplit(".", 1)[-1]),
                }
                for name, blob in files.items()
            },
        }
        from callbench.records.store import write_json

        write_json(folder / art.MANIFEST, manifest)
        return folder


def prepare(
    path: Path, inputs_path: Path | None = None, limit: int = SIZE_LIMIT,
    unwitnessed: bool = False,
) -> Path:  # fmt: skip
    """The checked artifact set in a temporary folder (the caller moves it beside the run);
    ``unwitnessed``: a reference no witness confirms is taken, and the manifest says so."""
    model, data = load(path, limit)
    inputs, outputs = declared(path, model)
    batch = batch_of(path, inputs)
    samples = fit_batch(path, batch, samples_for(path, inputs_path, inputs))
    reference = reference_outputs(path, data, outputs, batch, samples)
    checked = Checked(path, inputs, outputs, batch, samples, reference)
    tolerances = {t.name: t.tolerance or 0.0 for t in checked.signature.outputs}
    heard = witnesses.cross_check(path, data, samples, reference, tolerances, batch,
                                  unwitnessed=unwitnessed)  # fmt: skip
    return checked.write({art.ONNX: data}, inputs_path, {
        "opset": opset(model),
        "ir_version": model.ir_version,
        "producer": f"{model.producer_name} {model.producer_version}".strip() or None,
        "reference": "ONNX Runtime CPU provider, graph optimizations off",
        "cross_check": witnesses.summary(heard),
        "witnesses": [h.to_json() for h in heard],
        # True where witnesses ran, none agreed, and --unwitnessed took the reference all
        # the same: the records and the report's title say so.
        UNCONFIRMED: witnesses.unconfirmed(heard),
    })  # fmt: skip


def place(folder: Path, run_dir: Path) -> Path:
    """Move the prepared artifact set into the run folder, beside its records."""
    target = run_dir / FOLDER
    if target.exists():
        shutil.rmtree(target)
    shutil.move(str(folder), str(target))
    return target
