"""Checks every Python driver makes before timing (no runtime imported here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from callbench.errors import DataError


class _Shaped(Protocol):
    @property
    def shape(self) -> tuple[int, ...]: ...


class _Typed(_Shaped, Protocol):
    @property
    def dtype(self) -> object: ...


def check_output(path: Path, y: _Shaped, batch: int, shape: tuple[int, ...] = (1,)) -> None:
    """A model that answers with the wrong shape is named before any timing."""
    if tuple(y.shape) != (batch, *shape):
        want = (batch, *shape)
        raise DataError(path, f"gives outputs of shape {tuple(y.shape)}, expected {want}")


def per_sample(dims: Sequence[object]) -> tuple[int, ...] | None:
    """A declared shape without its batch dimension; None where a size is not declared."""
    sizes = tuple(d for d in dims[1:] if isinstance(d, int) and not isinstance(d, bool))
    return sizes if len(sizes) == len(dims[1:]) else None


@dataclass(frozen=True)
class Signature:
    """An ONNX model's one input and output as a driver feeds and reads them."""

    input_name: str
    output_name: str
    features: int
    output_shape: tuple[int, ...]  # per sample


def signature(
    path: Path,
    inputs: Sequence[tuple[str, Sequence[object]]],
    outputs: Sequence[tuple[str, Sequence[object]]],
    features: int,
    output_width: int,
) -> Signature:
    """The model's names and per-sample shapes (from the runtime's view of the graph),
    checked against the floats per sample of inputs.f32 and of the outputs."""
    if len(inputs) != 1 or len(outputs) != 1:
        raise DataError(
            path, f"has {len(inputs)} inputs and {len(outputs)} outputs, expected 1 and 1"
        )
    (x_name, x_dims), (y_name, y_dims) = inputs[0], outputs[0]
    x_shape = per_sample(x_dims)
    if x_shape is not None and x_shape != (features,):
        raise DataError(
            path, f"input {x_name!r} takes {list(x_dims)}, inputs.f32 has {features} per sample"
        )
    y_shape = per_sample(y_dims)
    if y_shape is None:
        y_shape = (output_width,)
    if math.prod(y_shape) != output_width:
        raise DataError(
            path,
            f"output {y_name!r} is {list(y_dims)}, the reference has {output_width} per sample",
        )
    return Signature(x_name, y_name, features, y_shape)


@dataclass(frozen=True)
class Ports:
    """A model's inputs and outputs as a runtime sees them, matched to the kit's arrays."""

    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    output_shapes: tuple[tuple[int, ...], ...]  # per sample

    @property
    def single(self) -> bool:
        """One input and one output: our MLP's case, called without loops over names."""
        return len(self.inputs) == 1 and len(self.outputs) == 1


Declared = tuple[str, Sequence[object], str | None]  # name, dims, NumPy dtype name (None: any)


def ports(
    path: Path,
    declared_inputs: Sequence[Declared],
    declared_outputs: Sequence[Declared],
    inputs: Sequence[_Typed],
    outputs: Sequence[_Typed],
) -> Ports:
    """The runtime's view of the model checked against the kit's arrays, in order: as many,
    of the same dtypes, and of the same sizes per sample where the runtime declares them."""
    for what, declared, arrays in (("inputs", declared_inputs, inputs),
                                   ("outputs", declared_outputs, outputs)):  # fmt: skip
        if len(declared) != len(arrays):
            raise DataError(path, f"has {len(declared)} {what} as loaded, the artifact set "
                                      f"{len(arrays)}")  # fmt: skip
        for (name, dims, dtype), array in zip(declared, arrays, strict=True):
            if dtype is not None and dtype != str(array.dtype):
                raise DataError(path, f"{what[:-1]} {name!r} is {dtype} as loaded, the "
                                          f"artifact set's is {array.dtype}")  # fmt: skip
            shape = per_sample(dims)
            if shape is not None and math.prod(shape) != math.prod(array.shape[1:]):
                has = f"the artifact set has {list(array.shape[1:])} a sample"
                raise DataError(path, f"{what[:-1]} {name!r} is {list(dims)} as loaded, {has}")
    return Ports(
        tuple(name for name, _, _ in declared_inputs),
        tuple(name for name, _, _ in declared_outputs),
        tuple(tuple(y.shape[1:]) for y in outputs),
    )


def per_call(arrays: Sequence[np.ndarray], batch: int) -> list[np.ndarray]:
    """Each array as ``[calls, batch, *shape]``: call i's samples are ``[i]``."""
    return [a.reshape(-1, batch, *a.shape[1:]) for a in arrays]
