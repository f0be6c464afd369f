"""What the torch-based Python drivers share: threads, loading, storing a result."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Prepared, model_error
from callbench.drivers.checks import check_output
from callbench.model.artifacts import require

Store = Callable[[int, torch.Tensor], None]


def set_threads(threads: int) -> None:
    torch.set_num_threads(threads)
    # Inter-op threads can only be set before the first parallel op; one is plenty.
    if torch.get_num_interop_threads() != 1:
        with contextlib.suppress(RuntimeError):
            torch.set_num_interop_threads(1)


def storer(outputs: np.ndarray, batch: int) -> Store:
    """A function that stores call i's result into ``outputs``.

    ``item()`` is the cheapest way to read a one-element tensor (a tensor
    __setitem__ costs several times the forward pass here).
    """
    if batch == 1:
        flat = outputs.reshape(-1)

        def store_one(i: int, y: torch.Tensor) -> None:
            flat[i] = y.item()

        return store_one
    rows = outputs.reshape(-1, batch)

    def store_batch(i: int, y: torch.Tensor) -> None:
        rows[i] = y.detach().numpy().reshape(-1)

    return store_batch


def load_torchscript(options: Options, name: str) -> torch.jit.ScriptModule:
    path = require(options.models, name)
    try:
        module: torch.jit.ScriptModule = torch.jit.load(  # type: ignore[no-untyped-call]
            str(path), map_location="cpu"
        )
    except Exception as exc:  # torch raises RuntimeError/ValueError for bad archives
        raise model_error(path, exc) from None
    module.eval()
    return module


def per_call_inputs(inputs: np.ndarray, batch: int) -> torch.Tensor:
    """Inputs viewed as [calls, batch, 2], sharing memory with the NumPy array."""
    return torch.from_numpy(inputs).view(-1, batch, 2)


def models_path(options: Options, name: str) -> Path:
    return require(options.models, name)


def module_loop(
    module: Callable[[torch.Tensor], torch.Tensor],
    path: Path,
    options: Options,
    inputs: np.ndarray,
    outputs: np.ndarray,
    *,
    inference: bool,
) -> Prepared:
    """The per-call loop both torch drivers time: one module call per call.

    ``inference`` runs the calls in ``torch.inference_mode()``, entered once by
    the protocol, not per call; without it the calls pay for autograd
    bookkeeping, as the seed's did.
    """
    x = per_call_inputs(inputs, options.batch)
    store = storer(outputs, options.batch)
    mode = torch.inference_mode if inference else contextlib.nullcontext
    with mode():
        check_output(path, module(x[0]), options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            store(i, module(x[i]))

    return Prepared(loop, torch.__version__, context=mode)
