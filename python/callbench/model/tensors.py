"""Contract version 3: a model's named inputs and outputs, and the raw files that hold them.

Each input and each reference output is one raw little-endian file of
``[samples, *shape]`` values of its dtype, named by its place and dtype alone
(:func:`tensor_file`), so that a kit in any language finds it with its standard
library and the runtime's own signature: input 0 is ``inputs.<ext>``, input k
``inputs<k>.<ext>``; output k's reference is ``reference.<ext>`` or
``reference<k>.<ext>``. Our MLP's ``inputs.f32`` and ``reference.f32`` are the
one-input, one-output case of the same rule. The manifest's ``tensors`` table
gives the names, dtypes and per-sample shapes.

A driver's ``--outputs`` file holds each output's samples of the last round,
one output after another in the signature's order, each in its own dtype.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import EXPORT_HINT, DataError

# dtype name -> (NumPy's little-endian type, the file extension).
DTYPES: dict[str, tuple[str, str]] = {
    "float32": ("<f4", "f32"),
    "float16": ("<f2", "f16"),
    "float64": ("<f8", "f64"),
    "int64": ("<i8", "i64"),
    "int32": ("<i4", "i32"),
    "int8": ("i1", "i8"),
    "uint8": ("u1", "u8"),
    "bool": ("?", "bool"),
}
FLOATS = ("float32", "float16", "float64")
# How far a float output may be from the reference, relative to max(1, its largest
# |value|): float32 and float64 by float32 rounding of another summation order;
# float16 about ten times its machine epsilon.
RELATIVE_TOLERANCE = {"float32": 1e-4, "float64": 1e-4, "float16": 10 * float(np.finfo("<f2").eps)}
MANIFEST_KEY = "tensors"
INPUTS_STEM, REFERENCE_STEM = "inputs", "reference"


def tensor_file(stem: str, index: int, dtype: str) -> str:
    """``inputs.f32`` for input 0 in float32, ``inputs1.i64`` for input 1 in int64, ..."""
    return f"{stem}{index or ''}.{DTYPES[dtype][1]}"


@dataclass(frozen=True)
class Tensor:
    """One named input or output: its dtype, its shape per sample, the file holding it."""

    name: str
    dtype: str
    shape: tuple[int, ...]  # per sample, without the batch dimension
    file: str
    # An output's largest allowed error against its reference (0: equal); None for inputs.
    tolerance: float | None = None

    @property
    def numpy_dtype(self) -> np.dtype[Any]:
        return np.dtype(DTYPES[self.dtype][0])

    @property
    def sample_size(self) -> int:
        """Values per sample."""
        return math.prod(self.shape)

    @property
    def sample_bytes(self) -> int:
        return self.sample_size * self.numpy_dtype.itemsize

    def to_json(self) -> dict[str, Any]:
        found = {"name": self.name, "dtype": self.dtype, "shape": list(self.shape),
                 "file": self.file}  # fmt: skip
        return found if self.tolerance is None else {**found, "tolerance": self.tolerance}


@dataclass(frozen=True)
class Signature:
    """Every input and output, in the model's order, and its batch dimension as declared
    (a symbolic name, or a fixed size: a model fixed at n > 1 runs only at batch n)."""

    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    batch: str | int = "batch"

    @property
    def fixed_batch(self) -> int | None:
        return self.batch if isinstance(self.batch, int) else None

    def to_json(self) -> dict[str, Any]:
        return {"inputs": [t.to_json() for t in self.inputs],
                "outputs": [t.to_json() for t in self.outputs], "batch": self.batch}  # fmt: skip


def tensors(stem: str, described: Sequence[tuple[str, str, Sequence[int]]]) -> tuple[Tensor, ...]:
    """(name, dtype, shape) in order, with each one's file by the naming rule."""
    return tuple(
        Tensor(name, dtype, tuple(int(d) for d in shape), tensor_file(stem, i, dtype))
        for i, (name, dtype, shape) in enumerate(described)
    )


def _tensor(where: Path, entry: object) -> Tensor:
    if not isinstance(entry, dict):
        raise DataError(where, f"{MANIFEST_KEY}: {entry!r} is not a tensor description")
    name, dtype, shape, file, limit = (
        entry.get(k) for k in ("name", "dtype", "shape", "file", "tolerance")
    )
    if not isinstance(name, str) or not name or not isinstance(file, str):
        raise DataError(where, f"{MANIFEST_KEY}: a tensor without a name or file: {entry}")
    if dtype not in DTYPES:
        raise DataError(where, f"{MANIFEST_KEY}: {name!r} has dtype {dtype!r}, not one of "
                                   f"{', '.join(DTYPES)}")  # fmt: skip
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 1 for d in shape):
        raise DataError(where, f"{MANIFEST_KEY}: {name!r} has shape {shape!r}")
    if limit is not None and (not isinstance(limit, int | float) or limit < 0):
        raise DataError(where, f"{MANIFEST_KEY}: {name!r} has tolerance {limit!r}")
    return Tensor(name, dtype, tuple(shape), file, None if limit is None else float(limit))


def read_signature(where: Path, manifest: dict[str, Any]) -> Signature:
    """The manifest's ``tensors`` table, checked (DataError naming ``where``)."""
    table = manifest.get(MANIFEST_KEY)
    if not isinstance(table, dict):
        raise DataError(where, f"has no '{MANIFEST_KEY}' table (contract 3); export again")
    found = []
    for key in ("inputs", "outputs"):
        entries = table.get(key)
        if not isinstance(entries, list) or not entries:
            raise DataError(where, f"{MANIFEST_KEY}: no {key}")
        found.append(tuple(_tensor(where, e) for e in entries))
    batch = table.get("batch", "batch")
    if not isinstance(batch, str | int) or isinstance(batch, bool):
        raise DataError(where, f"{MANIFEST_KEY}: batch {batch!r} is not a name or a size")
    return Signature(found[0], found[1], batch)


def read_samples(models: Path, tensor: Tensor, needed: int = 0) -> np.ndarray:
    """``tensor``'s file as ``[samples, *shape]`` of its dtype: a whole number of samples,
    at least ``needed`` of them, floats finite."""
    path = models / tensor.file
    if not path.is_file():
        raise DataError(path, f"missing; {EXPORT_HINT}")
    size = path.stat().st_size
    if size == 0 or size % tensor.sample_bytes:
        each = f"{tensor.name!r} ({tensor.sample_bytes} bytes each)"
        raise DataError(path, f"{size} bytes is not a whole number of samples of {each}")
    data = np.fromfile(path, dtype=tensor.numpy_dtype).reshape(-1, *tensor.shape)
    if len(data) < needed:
        raise DataError(path, f"holds {len(data)} samples, the run needs {needed}")
    if tensor.dtype in FLOATS and not np.isfinite(data).all():
        bad = int(np.flatnonzero(~np.isfinite(data.reshape(len(data), -1)).all(axis=1))[0])
        raise DataError(path, f"sample {bad} of {tensor.name!r} is NaN or Inf")
    return data


def relative_tolerance(dtype: str, reference: np.ndarray) -> float:
    """The largest error a user model's output of ``dtype`` may have against ``reference``
    (the rule above); 0, equality, for integers and bool."""
    if dtype not in RELATIVE_TOLERANCE:
        return 0.0
    largest = float(np.abs(reference.astype(np.float64)).max()) if reference.size else 0.0
    return RELATIVE_TOLERANCE[dtype] * max(1.0, largest)
