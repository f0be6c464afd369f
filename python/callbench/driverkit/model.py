"""What a Python driver writes: ``setup(options, inputs, outputs) -> Prepared``.

``Prepared.loop(start, stop)`` runs calls ``[start, stop)``, each taking its
samples from ``inputs`` and storing its result into ``outputs``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.inputs import load_inputs
from callbench.errors import ArtifactError, first_line
from callbench.model.artifacts import sample_widths

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


@dataclass(frozen=True)
class LoadedModel:
    """A driver's model set up: its loop, the buffers it reads and writes, its load time."""

    prepared: Prepared
    inputs: np.ndarray
    outputs: np.ndarray
    load_ns: int


def load(setup: Setup, options: Options) -> LoadedModel:
    """The run's inputs read, outputs allocated at the model's width, then ``setup`` timed."""
    inputs = load_inputs(options)
    outputs = np.zeros((options.calls * options.batch, sample_widths(options.models)[1]), "<f4")
    t0 = time.perf_counter_ns()
    prepared = setup(options, inputs, outputs)
    return LoadedModel(prepared, inputs, outputs, time.perf_counter_ns() - t0)


def model_error(path: Path, exc: BaseException) -> ArtifactError:
    """Wrap a runtime's load failure so the user sees the file and the first line."""
    return ArtifactError(path, f"cannot be loaded ({first_line(exc)})")
