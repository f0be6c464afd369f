"""What the GPU drivers share: whether they can run here, the device, our MLP on it, and
how a call's result lands in the outputs.

A GPU row needs torch to see a CUDA device (the CuPy row also needs CuPy, which is not a
dependency); elsewhere it is recorded as skipped with the reason, which ``available`` gives
the registry. The device's name and the CUDA version go into each record's notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from callbench.driver_options import Options
from callbench.errors import UsageError

if TYPE_CHECKING:  # torch is imported by the drivers, not by the registry that imports this
    import torch


@cache
def torch_unavailable() -> str | None:
    """None when torch sees a CUDA device; else the skip's line."""
    from callbench.cuda_probe import torch_reason

    return torch_reason()


@cache
def cupy_unavailable() -> str | None:
    """None when CuPy and a CUDA device are usable; else the skip's line."""
    from callbench.cuda_probe import load_cupy

    return load_cupy()[1]


def require_device() -> torch.device:
    """The CUDA device, or a usage error saying why there is none (the harness skips the
    row before it starts; this is for a driver started by hand)."""
    import torch

    reason = torch_unavailable()
    if reason is not None:
        raise UsageError(reason)
    return torch.device("cuda")


def mlp_on_device(options: Options, device: torch.device) -> tuple[torch.nn.Module, Path]:
    """Our MLP (any width of the family) from its state_dict, in eval mode on ``device``,
    and the file it came from."""
    from callbench.drivers.torch_common import models_path
    from callbench.model.artifacts import STATE_DICT
    from callbench.model.wide_mlp import mlp_from_state_dict

    path = models_path(options, STATE_DICT)
    return mlp_from_state_dict(path).to(device), path


@dataclass(frozen=True)
class OnDevice:
    """What every torch GPU row starts from: the device, our MLP on it (and the file it came
    from, for errors), and the calls' inputs and outputs as CPU tensors ``[calls, batch, ...]``
    sharing the harness's arrays."""

    device: torch.device
    model: torch.nn.Module
    path: Path
    x: torch.Tensor
    y: torch.Tensor


def on_device(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> OnDevice:
    """The device (a usage error without one), the host's threads set, our MLP moved there,
    and the calls' views."""
    from callbench.drivers.torch_common import set_threads

    device = require_device()
    set_threads(options.threads)
    model, path = mlp_on_device(options, device)
    batch = options.batch
    return OnDevice(device, model, path, calls_view(inputs, batch), calls_view(outputs, batch))


def calls_view(array: np.ndarray, batch: int) -> torch.Tensor:
    """``array`` as a CPU tensor ``[calls, batch, *sample]`` sharing its memory: call i's
    samples in, call i's results out (a copy into it from the device waits for the GPU)."""
    import torch

    return torch.from_numpy(array).view(-1, batch, *array.shape[1:])


def notes(call: str) -> dict[str, Any]:
    import torch

    return {
        "call": call,
        "device": torch.cuda.get_device_name(),
        "cuda": torch.version.cuda,
        "host_threads": torch.get_num_threads(),
    }
