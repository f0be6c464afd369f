"""Checks every Python driver makes before timing (no runtime imported here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from callbench.errors import ArtifactError


class _Shaped(Protocol):
    @property
    def shape(self) -> tuple[int, ...]: ...


def check_output(path: Path, y: _Shaped, batch: int, shape: tuple[int, ...] = (1,)) -> None:
    """A model that answers with the wrong shape is named before any timing."""
    if tuple(y.shape) != (batch, *shape):
        want = (batch, *shape)
        raise ArtifactError(path, f"gives outputs of shape {tuple(y.shape)}, expected {want}")


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
        raise ArtifactError(
            path, f"has {len(inputs)} inputs and {len(outputs)} outputs, expected 1 and 1"
        )
    (x_name, x_dims), (y_name, y_dims) = inputs[0], outputs[0]
    x_shape = per_sample(x_dims)
    if x_shape is not None and x_shape != (features,):
        raise ArtifactError(
            path, f"input {x_name!r} takes {list(x_dims)}, inputs.f32 has {features} per sample"
        )
    y_shape = per_sample(y_dims)
    if y_shape is None:
        y_shape = (output_width,)
    if math.prod(y_shape) != output_width:
        raise ArtifactError(
            path,
            f"output {y_name!r} is {list(y_dims)}, the reference has {output_width} per sample",
        )
    return Signature(x_name, y_name, features, y_shape)
