"""python-eager: the model as a torch.nn.Module, one module call per call (the seed's way).

The plain variant is the seed's loop as written, autograd bookkeeping and all;
``-inference`` adds ``torch.inference_mode()``, PyTorch's documented fastest
mode for code that never calls backward.

The module is our MLP rebuilt from its state_dict, or, in a ``--torch`` run,
the user's program as ``torch.export`` hands it back: ``ep.module()``, called
with every input and giving every output (contract 3).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Prepared, every_tensor, model_error
from callbench.drivers.checks import check_output, per_call
from callbench.drivers.torch_common import models_path, module_loop, set_threads
from callbench.errors import UsageError
from callbench.model.artifacts import STATE_DICT, load_state_dict
from callbench.model.user_torch import PROGRAM, load
from callbench.model.wide_mlp import mlp_of_width


def program_loop(
    module: Callable[..., Any], options: Options, inputs: Arrays, outputs: Arrays,
    *, inference: bool,
) -> Prepared:  # fmt: skip
    """Call i passes each input's samples i as a tensor view and copies each output back
    (detached: without inference mode the outputs carry autograd, as the user's would)."""
    path = options.models / PROGRAM
    xs = [torch.from_numpy(x) for x in per_call(inputs, options.batch)]
    ys = per_call(outputs, options.batch)
    mode = torch.inference_mode if inference else contextlib.nullcontext

    def answers(i: int) -> tuple[torch.Tensor, ...]:
        got = module(*(x[i] for x in xs))
        return tuple(got) if isinstance(got, tuple | list) else (got,)

    with mode():
        first = answers(0)
    if len(first) != len(ys):
        raise model_error(path, ValueError(f"gave {len(first)} outputs, expected {len(ys)}"))
    for y, got in zip(ys, first, strict=True):
        check_output(path, got, options.batch, y.shape[2:])
    pairs = list(range(len(ys)))

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            got = answers(i)
            for k in pairs:
                ys[k][i] = got[k].detach().numpy()

    notes = {"call": "ep.module()(*inputs), from torch.export.load"}
    return Prepared(loop, torch.__version__, notes, context=mode)


def setup(options: Options, inputs: Arrays, outputs: Arrays, *, inference: bool) -> Prepared:
    set_threads(options.threads)
    if (options.models / PROGRAM).is_file():
        try:
            module = load(options.models / PROGRAM).module()
        except UsageError as exc:  # the harness checked it; a changed file is named here
            raise model_error(options.models / PROGRAM, exc) from None
        return program_loop(module, options, inputs, outputs, inference=inference)
    path = models_path(options, STATE_DICT)
    state = load_state_dict(path, hidden=None)  # any width of the family
    model = mlp_of_width(state["a.weight"].shape[0])
    model.load_state_dict(state)
    model.eval()
    (x,), (y,) = inputs, outputs
    return module_loop(model, path, options, x, y, inference=inference)


@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Prepared:
    return setup(options, inputs, outputs, inference=False)


@every_tensor
def inference(options: Options, inputs: Arrays, outputs: Arrays) -> Prepared:
    return setup(options, inputs, outputs, inference=True)
