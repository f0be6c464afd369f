"""The artifact set under models/: names, the manifest, and checked readers.

Every reader fails with an ``DataError`` naming the file and the problem,
never with a traceback from deep inside NumPy or torch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import EXPORT_HINT, DataError, first_line
from callbench.files import write_atomic
from callbench.model.architecture import HIDDEN
from callbench.model.tensors import Signature, read_samples, read_signature

STATE_DICT = "mlp_state_dict.pt"
TORCHSCRIPT = "mlp_torchscript.pt"
ONNX = "mlp.onnx"
WEIGHTS = "mlp_weights.f32"
INPUTS = "inputs.f32"
REFERENCE = "reference.f32"
MANIFEST = "manifest.json"
# How long each artifact took to export, in seconds: beside the manifest, not in it,
# so that the manifest stays the same bytes from one export to the next.
EXPORT_SECONDS = "export_seconds.json"
# env.json's copy of the manifest's per-file sha256 (name -> hex digest).
FILES_SHA256 = "files_sha256"
# env.json's list of the files the manifest marks not reproducible (``"reproducible":
# false``: machine code compiled for the exporting host, as AOTInductor's and IREE's).
COMPILED_FOR_HOST = "files_compiled_for_host"
# The family of model sizes: family.json lists each width, exported into widths/<H>/ with
# the portable artifacts, inputs, reference and manifest the reference model has.
FAMILY = "family.json"
FAMILY_DIR = "widths"


def family_folder(hidden: int) -> str:
    """Where width ``hidden`` of the family lives, relative to models/."""
    return f"{FAMILY_DIR}/{hidden}"


def family_folders(models: Path) -> list[Path]:
    """The width folders an export left under ``models``."""
    root = models / FAMILY_DIR
    return (
        sorted(p for p in root.iterdir() if p.is_dir() and p.name.isdigit())
        if root.is_dir()
        else []
    )


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def require(models: Path, name: str) -> Path:
    """The path of artifact ``name``, or an error telling the user to export."""
    path = models / name
    if not path.is_file():
        raise DataError(path, f"missing; {EXPORT_HINT}")
    return path


def trace_at_batch(name: str, batch: int | str) -> str:
    """The file of a trace made at ``batch`` alone, in place of ``name`` (a trace of a program
    that bakes its batch in runs at the batch it was traced at): ``mlp_torchscript_batch1.pt``."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}_batch{batch}{dot}{suffix}"


def at_batch(models: Path, name: str, batch: int) -> str:
    """The file a driver of artifact ``name`` loads at ``batch``: ``name`` itself, or where the
    set holds one trace per batch in its place, the trace at ``batch`` (when there is one)."""
    files = read_manifest(models)["files"]
    per_batch = trace_at_batch(name, batch)
    return per_batch if name not in files and per_batch in files else name


def read_manifest(models: Path) -> dict[str, Any]:
    path = require(models, MANIFEST)
    try:
        manifest = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(path, f"not valid JSON ({exc}); {EXPORT_HINT}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise DataError(path, f"has no 'files' table; {EXPORT_HINT}")
    return manifest


def verify(models: Path, names: Iterable[str]) -> dict[str, Any]:
    """Check each named artifact against the manifest (size and sha256)."""
    manifest = read_manifest(models)
    files: dict[str, Any] = manifest["files"]
    for name in names:
        path = require(models, name)
        entry = files.get(name)
        if not isinstance(entry, dict):
            raise DataError(path, f"not listed in {MANIFEST}; {EXPORT_HINT}")
        size = path.stat().st_size
        if size != entry.get("bytes"):
            raise DataError(
                path, f"is {size} bytes, manifest says {entry.get('bytes')}; {EXPORT_HINT}"
            )
        if sha256_of(path) != entry.get("sha256"):
            raise DataError(path, f"sha256 does not match {MANIFEST}; {EXPORT_HINT}")
    return manifest


def signature(models: Path) -> Signature:
    """The model's inputs and outputs: the manifest's tensors table (contract 3)."""
    return read_signature(models / MANIFEST, read_manifest(models))


def read_inputs(models: Path, needed: int = 0) -> np.ndarray:
    """The first input's samples, ``[n, *shape]`` (our MLP's ``inputs.f32``, ``[n, 2]``);
    at least ``needed`` of them."""
    return read_samples(models, signature(models).inputs[0], needed)


def read_reference(models: Path) -> np.ndarray:
    """The first output's reference (our MLP's ``reference.f32``, ``[n, 1]``)."""
    return read_samples(models, signature(models).outputs[0])


def tolerance(models: Path, default: float) -> float:
    """The largest error a driver's outputs may have: the manifest's, else ``default``."""
    value = read_manifest(models).get("tolerance")
    return float(value) if isinstance(value, int | float) and value > 0 else default


def load_state_dict(path: Path, hidden: int | None = HIDDEN) -> dict[str, Any]:
    """Load a state_dict without running pickled code, checked against the MLP's shapes
    at hidden width ``hidden`` (the reference's by default; None: the width its first
    layer has, for drivers that run every width of the family)."""
    import pickle
    import zipfile

    import torch

    from callbench.model.architecture import state_dict_shapes

    if not path.is_file():
        raise DataError(path, f"missing; {EXPORT_HINT}")
    try:
        # weights_only: the unpickler only builds tensors and plain containers.
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, zipfile.BadZipFile, EOFError, IndexError,
            ValueError) as exc:  # fmt: skip
        problem = f"not a loadable weights-only state_dict ({first_line(exc)})"
        raise DataError(path, problem) from None
    if not isinstance(state, dict):
        raise DataError(path, f"holds a {type(state).__name__}, not a state_dict")
    if hidden is None:
        layer = state.get("a.weight")
        hidden = int(layer.shape[0]) if isinstance(layer, torch.Tensor) and layer.ndim else 0
    expected = state_dict_shapes(hidden)
    if set(state) != set(expected):
        raise DataError(path, f"keys {sorted(state)} are not the MLP's {sorted(expected)}")
    for key, shape in expected.items():
        value = state[key]
        if not isinstance(value, torch.Tensor) or tuple(value.shape) != shape:
            got = tuple(value.shape) if isinstance(value, torch.Tensor) else type(value).__name__
            raise DataError(path, f"{key} has shape {got}, the MLP needs {shape}")
    return state


__all__ = ["write_atomic"]  # re-exported: the exporter writes artifacts with it
