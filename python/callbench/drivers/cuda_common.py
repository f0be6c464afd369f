"""What the GPU drivers share: whether they can run here, the device, the model on it
(``load``: ``cuda_model.model_on``, or a row's own artifact), and each call's tensors.

A GPU row needs torch to see a CUDA device (the CuPy row also needs CuPy, which is not a
dependency); elsewhere it is recorded as skipped with the reason, which ``available`` gives
the registry. The device's name and the CUDA version go into each record's notes.

float32 rows are checked against the CPU's reference: TF32 is turned off for matmul and
cuDNN before the model runs (its 10-bit mantissa would miss the contract's tolerance), and
the notes say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from callbench.driver_options import Options
from callbench.errors import UsageError

if TYPE_CHECKING:  # torch is imported by the drivers, not by the registry that imports this
    import torch

    from callbench.driverkit.model import Arrays, Loop
# What the notes say of the numerics (the float32 reference is the CPU's).
TF32_OFF = "TF32 off for matmul and cuDNN (torch.backends.*.allow_tf32 = False)"


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


@dataclass(frozen=True)
class OnDevice:
    """What every torch GPU row starts from: the device, the model on it (and the file it
    came from, for errors), and each input's and output's calls as CPU tensors
    ``[calls, batch, ...]`` sharing the harness's arrays, in the model's order."""

    device: torch.device
    model: Callable[..., Any]
    path: Path
    xs: tuple[torch.Tensor, ...]
    ys: tuple[torch.Tensor, ...]


Loader = Callable[[Options, "torch.device"], tuple[Callable[..., Any], Path]]


def on_device(options: Options, inputs: Arrays, outputs: Arrays, load: Loader) -> OnDevice:
    """The device (a usage error without one), TF32 off, the host's threads set, the model
    ``load`` gives on it, and the calls' views."""
    import torch

    from callbench.drivers.torch_common import set_threads

    device = require_device()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    set_threads(options.threads)
    model, path = load(options, device)
    batch = options.batch
    return OnDevice(device, model, path, tuple(calls_view(x, batch) for x in inputs),
                    tuple(calls_view(y, batch) for y in outputs))  # fmt: skip


def calls_view(array: np.ndarray, batch: int) -> torch.Tensor:
    """``array`` as a CPU tensor ``[calls, batch, *sample]`` sharing its memory: call i's
    samples in, call i's results out (a copy into it from the device waits for the GPU)."""
    import torch

    return torch.from_numpy(array).view(-1, batch, *array.shape[1:])


def first_answer(path: Path, got: Any, ys: Sequence[torch.Tensor], batch: int) -> bool:
    """The model's answer to the first call checked against the outputs' count and shapes,
    before any timing; True when it is one tensor (not a tuple or list of them)."""
    from callbench.driverkit.model import model_error
    from callbench.drivers.checks import check_output

    single = not isinstance(got, tuple | list)
    found = (got,) if single else tuple(got)
    if len(found) != len(ys):
        raise model_error(path, ValueError(f"gave {len(found)} outputs, expected {len(ys)}"))
    for y, answer in zip(ys, found, strict=True):
        check_output(path, answer, batch, tuple(y.shape[2:]))
    return single


def copying_loop(call: Callable[..., Any], gpu: OnDevice, batch: int) -> Loop:
    """The plain call on the device, checked once here (in the caller's context): each call
    copies its samples in (``x.to(device)``), calls, and copies each result back into the
    outputs (the copy back waits for the GPU). One input and one tensor out (our MLP's case)
    loop without loops over them."""
    device, xs, ys = gpu.device, gpu.xs, gpu.ys
    single = first_answer(gpu.path, call(*(x[0].to(device) for x in xs)), ys, batch)
    if single and len(xs) == 1:
        (x,), (y,) = xs, ys

        def loop_one(start: int, stop: int) -> None:
            for i in range(start, stop):
                y[i].copy_(call(x[i].to(device)))

        return loop_one
    if single:
        (y,) = ys

        def loop_inputs(start: int, stop: int) -> None:
            for i in range(start, stop):
                y[i].copy_(call(*[x[i].to(device) for x in xs]))

        return loop_inputs
    pairs = list(enumerate(ys))

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            got = call(*[x[i].to(device) for x in xs])
            for k, y in pairs:
                y[i].copy_(got[k])

    return loop


def notes(call: str) -> dict[str, Any]:
    import torch

    return {
        "call": call,
        "device": torch.cuda.get_device_name(),
        "cuda": torch.version.cuda,
        "host_threads": torch.get_num_threads(),
        "numerics": TF32_OFF,
    }
