"""What a Python driver writes: ``setup(options, inputs, outputs) -> Prepared``.

``Prepared.loop(start, stop)`` runs calls ``[start, stop)``, each taking its
samples from ``inputs`` and storing its result into ``outputs``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.errors import ArtifactError, first_line

Loop = Callable[[int, int], None]


@dataclass(frozen=True)
class Prepared:
    """A loaded model's loop, its runtime's version, and notes for the record."""

    loop: Loop
    runtime_version: str
    notes: dict[str, Any] = field(default_factory=dict)
    # Entered once around warm-up and every round (e.g. torch.inference_mode),
    # so no call pays for entering it.
    context: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext


Setup = Callable[[Options, np.ndarray, np.ndarray], Prepared]


def model_error(path: Path, exc: BaseException) -> ArtifactError:
    """Wrap a runtime's load failure so the user sees the file and the first line."""
    return ArtifactError(path, f"cannot be loaded ({first_line(exc)})")
