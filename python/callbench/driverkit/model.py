"""What a Python driver writes: ``setup(options, inputs, outputs) -> Model``.

``Model.loop(start, stop)`` runs calls ``[start, stop)``, each taking its
samples from ``inputs`` and storing its result into ``outputs``. A driver of
one input and one output (our MLP's) gets the two arrays; a driver marked
``@every_tensor`` (the ONNX drivers) gets a tuple of arrays for each, in the
model's order, ``[calls * batch, *shape]`` in each tensor's dtype (contract 3).

A driver that takes callers (contract 4) also returns ``Model.sharing``: how its
callers hold what setup loaded, and ``caller(inputs, outputs) -> Loop``, which makes
one caller's own call state (its buffers, bindings, requests) over that caller's own
arrays. ``loop`` stays the one caller's, timed as before.

A driver whose runtime takes a changing batch without reloading (contract 7's ``--gathered``)
is marked ``@takes_gathered`` and returns ``Model.gathered``: ``gathered(n)`` makes one call
of the first n samples of call 0's places (1 <= n <= B), its outputs into the first n of
call 0's output places, as a service's batcher calls with what it gathered.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.inputs import read_inputs
from callbench.errors import DataError, first_line
from callbench.model.artifacts import MANIFEST, signature
from callbench.roles import PER_CALLER, SHARED

__all__ = ["PER_CALLER", "SHARED", "Arrays", "Gathered", "Loop", "Model", "Setup", "Sharing",
           "takes_callers", "takes_gathered"]  # fmt: skip

Loop = Callable[[int, int], None]
Gathered = Callable[[int], None]
Arrays = tuple[np.ndarray, ...]


@dataclass(frozen=True)
class Sharing:
    """How many callers call one loaded model: ``holds`` (SHARED or PER_CALLER), ``how`` in
    the runtime's words (the record's notes), and ``caller``, one caller's loop over its own
    inputs and outputs, made in the thread that sets the callers up."""

    holds: str
    how: str
    caller: Callable[[Arrays, Arrays], Loop]


@dataclass(frozen=True)
class Model:
    """A loaded model's loop, its runtime's version, and notes for the record."""

    loop: Loop
    runtime_version: str
    notes: dict[str, Any] = field(default_factory=dict)
    # Entered once around warm-up and every round (e.g. torch.inference_mode),
    # so no call pays for entering it.
    # With callers, each caller's thread enters it too (inference mode is thread-local).
    context: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext
    sharing: Sharing | None = None  # None: the driver runs one caller
    gathered: Gathered | None = None  # None: its call takes a fixed batch


Setup = Callable[[Options, np.ndarray, np.ndarray], Model]
# The mark of a setup that takes every input and output: (options, inputs, outputs).
EVERY_TENSOR = "callbench_every_tensor"
F = TypeVar("F", bound=Callable[..., Model])


def every_tensor(setup: F) -> F:
    """Mark ``setup`` as taking a tuple of arrays for the inputs and one for the outputs."""
    setattr(setup, EVERY_TENSOR, True)
    return setup


# The mark of a setup whose Model has ``sharing`` (contract 4): the entry refuses
# --callers N > 1 before loading anything for a setup without it.
TAKES_CALLERS = "callbench_takes_callers"


def takes_callers(setup: F) -> F:
    """Mark ``setup`` as returning a Model with ``sharing``: it takes ``--callers N``."""
    setattr(setup, TAKES_CALLERS, True)
    return setup


# The mark of a setup whose Model has ``gathered`` (contract 7's --gathered): the entry
# refuses --gathered before loading anything for a setup without it.
TAKES_GATHERED = "callbench_takes_gathered"


def takes_gathered(setup: F) -> F:
    """Mark ``setup`` as returning a Model with ``gathered``: it takes ``--gathered``."""
    setattr(setup, TAKES_GATHERED, True)
    return setup


@dataclass(frozen=True)
class LoadedModel:
    """A driver's model set up: its loop, the buffers it reads and writes, its load time."""

    model: Model
    inputs: Arrays
    outputs: Arrays
    load_ns: int


def load(setup: Setup, options: Options) -> LoadedModel:
    """The run's inputs read, outputs allocated at the model's shapes, then ``setup`` timed."""
    found = signature(options.models)
    inputs = read_inputs(options, found)
    samples = options.calls * options.batch
    outputs = tuple(np.zeros((samples, *t.shape), t.numpy_dtype) for t in found.outputs)
    if getattr(setup, EVERY_TENSOR, False):
        every = cast(Callable[[Options, Arrays, Arrays], Model], setup)
        t0 = time.perf_counter_ns()
        model = every(options, inputs, outputs)
    else:
        one = (*found.inputs, *found.outputs)
        if (
            len(found.inputs) != 1
            or len(found.outputs) != 1
            or any(t.dtype != "float32" for t in one)
        ):
            raise DataError(
                options.models / MANIFEST, "this driver feeds one float32 input and reads one "
                "float32 output; the model has " + ", ".join(f"{t.name!r} {t.dtype}" for t in one),
            )  # fmt: skip
        t0 = time.perf_counter_ns()
        model = setup(options, inputs[0], outputs[0])
    return LoadedModel(model, inputs, outputs, time.perf_counter_ns() - t0)


def model_error(path: Path, exc: BaseException) -> DataError:
    """Wrap a runtime's load failure so the user sees the file and the first line."""
    return DataError(path, f"cannot be loaded ({first_line(exc)})")
