"""python-eager-seed: the seed study's Python loop exactly as its author wrote it.

The seed's module builds two ``nn.ReLU()`` modules on every call
(``x = nn.ReLU()(self.a(x))``), and its loop iterates ``for x in X`` over a
``[N, 2]`` tensor, so each call takes a ``[2]``-shaped row. No inference mode.
The only addition is storing each result (``item()``), which the contract
requires of every driver. Batch 1 only, as in the seed.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers.checks import check_output
from callbench.drivers.torch_common import set_threads
from callbench.errors import UsageError
from callbench.model.artifacts import STATE_DICT, load_state_dict, require


class MyNN(nn.Module):
    """The seed's class, forward and all."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(2, 8)
        self.b = nn.Linear(8, 8)
        self.c = nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = nn.ReLU()(self.a(x))
        x = nn.ReLU()(self.b(x))
        x = self.c(x)
        return x


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    if options.batch != 1:
        raise UsageError("--batch must be 1: the seed's loop calls the model on one [2] row")
    set_threads(options.threads)
    path = require(options.models, STATE_DICT)
    model = MyNN()
    model.eval()
    model.load_state_dict(load_state_dict(path))
    X = torch.tensor(inputs)  # the seed builds X with torch.tensor (a copy)  # noqa: N806
    flat = outputs.reshape(-1)
    check_output(path, model(X[0]).reshape(1, 1), 1)

    def loop(start: int, stop: int) -> None:
        i = start
        for x in X[start:stop]:
            flat[i] = model(x).item()
            i += 1

    return Model(loop, torch.__version__, {"call": "the seed's module and loop as written"})
