"""Checks every Python driver makes before timing (no runtime imported here)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from callbench.errors import ArtifactError


class _Shaped(Protocol):
    @property
    def shape(self) -> tuple[int, ...]: ...


def check_output(path: Path, y: _Shaped, batch: int) -> None:
    """A model that answers with the wrong shape is named before any timing."""
    if tuple(y.shape) != (batch, 1):
        raise ArtifactError(path, f"gives outputs of shape {tuple(y.shape)}, expected ({batch}, 1)")
