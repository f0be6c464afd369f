"""What the torch-based Python drivers share: threads, loading, storing a result."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import SHARED, Arrays, Loop, Model, Sharing, model_error
from callbench.drivers.checks import check_output, per_call
from callbench.errors import UsageError
from callbench.model.artifacts import require
from callbench.model.user_torch import PROGRAM
from callbench.model.user_torch_archive import load

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


def load_torchscript(path: Path) -> torch.jit.ScriptModule:
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
    shared_how: str | None = None,
) -> Model:
    """The per-call loop both torch drivers time: one module call per call; with
    ``shared_how``, callers (contract 4) share the module, each with its own loop.

    ``inference`` runs the calls in ``torch.inference_mode()``, entered once by
    the protocol, not per call; without it the calls pay for autograd
    bookkeeping, as the seed's did.
    """
    mode = torch.inference_mode if inference else contextlib.nullcontext

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        (x_all,), (y_all,) = inputs, outputs
        x = per_call_inputs(x_all, options.batch)
        store = storer(y_all, options.batch)

        def loop(start: int, stop: int) -> None:
            for i in range(start, stop):
                store(i, module(x[i]))

        return loop

    with mode():
        check_output(path, module(per_call_inputs(inputs, options.batch)[0]), options.batch)
    return Model(caller((inputs,), (outputs,)), torch.__version__, context=mode,
                 sharing=shared(shared_how, caller))  # fmt: skip


# Contract 4: a module's forward keeps no state between calls, so callers share the one
# module; inference mode is thread-local, so each caller's thread enters its own.
SHARED_MODULE = "one module, called from every caller's thread, each in its own inference_mode"


def shared(how: str | None, caller: Callable[[Arrays, Arrays], Loop]) -> Sharing | None:
    """Callers sharing the one module, where the driver says how (None: one caller)."""
    return Sharing(SHARED, how, caller) if how is not None else None


def program_module(options: Options) -> Any | None:
    """The user's program as ``torch.export`` hands it back (``ep.module()``), in a
    ``--torch`` run; None in a run on our MLP."""
    path = options.models / PROGRAM
    if not path.is_file():
        return None
    try:
        return load(path).module()
    except UsageError as exc:  # the harness checked it; a file changed since is named here
        raise model_error(path, exc) from None


def is_program_run(options: Options) -> bool:
    """A ``--torch`` run: the folder holds the user's program, not our MLP."""
    return (options.models / PROGRAM).is_file()


def tensors_loop(
    call: Callable[[list[torch.Tensor]], Any], path: Path, options: Options, inputs: Arrays,
    outputs: Arrays,
) -> Loop:  # fmt: skip
    """The loop over every input and output (contract 3): call i passes each input's samples
    i as tensor views, and copies each output it gets back (detached: without inference mode
    they may carry autograd, as the user's would). The first call is checked, inside the
    caller's context; what it shows (one output or several) picks the loop, so a call does
    no more than the model's own work and the copies."""
    xs = [torch.from_numpy(x) for x in per_call(inputs, options.batch)]
    ys = per_call(outputs, options.batch)
    got = call([x[0] for x in xs])
    single = not isinstance(got, tuple | list)
    first = (got,) if single else got
    if len(first) != len(ys):
        raise model_error(path, ValueError(f"gave {len(first)} outputs, expected {len(ys)}"))
    for y, answer in zip(ys, first, strict=True):
        check_output(path, answer, options.batch, y.shape[2:])

    if single and len(xs) == 1:
        (x,), (y,) = xs, ys

        def loop_one(start: int, stop: int) -> None:
            for i in range(start, stop):
                y[i] = call([x[i]]).detach().numpy()

        return loop_one
    if single:
        (y,) = ys

        def loop_inputs(start: int, stop: int) -> None:
            for i in range(start, stop):
                y[i] = call([x[i] for x in xs]).detach().numpy()

        return loop_inputs
    pairs = list(enumerate(ys))

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            answers = call([x[i] for x in xs])
            for k, y in pairs:
                y[i] = answers[k].detach().numpy()

    return loop


def program_loop(
    module: Callable[..., Any], options: Options, inputs: Arrays, outputs: Arrays,
    *, inference: bool, path: Path | None = None,
    call: str = "ep.module()(*inputs), from torch.export.load", shared_how: str | None = None,
) -> Model:  # fmt: skip
    """The program's module (or one made from it, at ``path``) called with every input, one
    call per call."""
    mode = torch.inference_mode if inference else contextlib.nullcontext

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        return tensors_loop(lambda xs: module(*xs), path or options.models / PROGRAM, options,
                            inputs, outputs)  # fmt: skip

    with mode():
        loop = caller(inputs, outputs)
    return Model(loop, torch.__version__, {"call": call}, context=mode,
                 sharing=shared(shared_how, caller))  # fmt: skip
