"""python-eager: the model as a torch.nn.Module, one module call per call (the seed's way).

The plain variant is the seed's loop as written, autograd bookkeeping and all;
``-inference`` adds ``torch.inference_mode()``, PyTorch's documented fastest
mode for code that never calls backward.
"""

from __future__ import annotations

import contextlib

import numpy as np
import torch

from callbench.artifacts import STATE_DICT, load_state_dict
from callbench.drivers.checks import check_output
from callbench.drivers.torch_common import (
    models_path,
    per_call_inputs,
    set_threads,
    storer,
)
from callbench.model import MLP
from callbench.protocol import DriverInfo, Options, Prepared


def info(driver_id: str) -> DriverInfo:
    return DriverInfo(driver_id, "torch", torch.__version__, STATE_DICT)


def setup(
    options: Options, inputs: np.ndarray, outputs: np.ndarray, *, inference: bool
) -> Prepared:
    set_threads(options.threads)
    path = models_path(options, STATE_DICT)
    model = MLP()
    model.load_state_dict(load_state_dict(path))
    model.eval()
    x = per_call_inputs(inputs, options.batch)
    store = storer(outputs, options.batch)
    mode = torch.inference_mode if inference else contextlib.nullcontext
    with mode():
        check_output(path, model(x[0]), options.batch)

    def loop(start: int, stop: int) -> None:
        with mode():
            for i in range(start, stop):
                store(i, model(x[i]))

    return Prepared(loop)


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, inference=False)


def inference(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, inference=True)
