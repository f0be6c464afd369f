"""python-eager: the model as a torch.nn.Module, one module call per call (the seed's way).

The plain variant is the seed's loop as written, autograd bookkeeping and all;
``-inference`` adds ``torch.inference_mode()``, PyTorch's documented fastest
mode for code that never calls backward.
"""

from __future__ import annotations

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Prepared
from callbench.drivers.torch_common import (
    models_path,
    module_loop,
    set_threads,
)
from callbench.model.artifacts import STATE_DICT, load_state_dict
from callbench.model.wide_mlp import mlp_of_width


def setup(
    options: Options, inputs: np.ndarray, outputs: np.ndarray, *, inference: bool
) -> Prepared:
    set_threads(options.threads)
    path = models_path(options, STATE_DICT)
    state = load_state_dict(path, hidden=None)  # any width of the family
    model = mlp_of_width(state["a.weight"].shape[0])
    model.load_state_dict(state)
    model.eval()
    return module_loop(model, path, options, inputs, outputs, inference=inference)


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, inference=False)


def inference(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, inference=True)
