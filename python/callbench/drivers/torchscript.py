"""python-torchscript: ``torch.jit.load`` of the exported TorchScript, one call per call.

``-frozen`` is the documented inference path: ``torch.jit.freeze`` folds the
weights into the graph, ``optimize_for_inference`` fuses what it can, and the
calls run under ``torch.inference_mode()``.
"""

from __future__ import annotations

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Prepared
from callbench.drivers.torch_common import (
    load_torchscript,
    models_path,
    module_loop,
    set_threads,
)
from callbench.model.artifacts import TORCHSCRIPT


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray, *, frozen: bool) -> Prepared:
    set_threads(options.threads)
    module = load_torchscript(options, TORCHSCRIPT)
    if frozen:
        module = torch.jit.optimize_for_inference(torch.jit.freeze(module))
    path = models_path(options, TORCHSCRIPT)
    return module_loop(module, path, options, inputs, outputs, inference=frozen)


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, frozen=False)


def frozen(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return setup(options, inputs, outputs, frozen=True)
