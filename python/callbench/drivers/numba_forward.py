"""python-numba: the forward pass as an ``@njit`` function, called once per call.

The function is ordinary Python over the raw weights (``mlp_weights.f32``),
compiled by numba at load (its compile time is in ``load_ns``). Each call
passes three arrays and two integers; numba's dispatcher checks the
arguments' types on every call, which is most of a call's cost.
"""

from __future__ import annotations

import numba
import numpy as np

from callbench.driverkit.model import Prepared
from callbench.driverkit.options import Options
from callbench.drivers.raw_weights import read_flat

# Where each tensor starts in the 105 raw weights (see docs/contract.md).
A_WEIGHT, A_BIAS, B_WEIGHT, B_BIAS, C_WEIGHT, C_BIAS = 0, 16, 24, 88, 96, 104
IN, HIDDEN = 2, 8


def forward(w: np.ndarray, x: np.ndarray, y: np.ndarray, i: int, batch: int) -> None:
    """Call i: rows ``x[i*batch:(i+1)*batch]`` through the MLP into ``y``. Compiled by numba."""
    zero = np.float32(0.0)
    for s in range(i * batch, (i + 1) * batch):
        x0, x1 = x[s, 0], x[s, 1]
        h1 = np.empty(HIDDEN, np.float32)
        for j in range(HIDDEN):
            v = w[A_BIAS + j] + w[A_WEIGHT + IN * j] * x0 + w[A_WEIGHT + IN * j + 1] * x1
            h1[j] = max(v, zero)
        out = w[C_BIAS]
        for j in range(HIDDEN):
            v = w[B_BIAS + j]
            for k in range(HIDDEN):
                v += w[B_WEIGHT + HIDDEN * j + k] * h1[k]
            out += w[C_WEIGHT + j] * max(v, zero)
        y[s, 0] = out


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    weights = read_flat(options)
    compiled = numba.njit(forward)
    batch = options.batch
    compiled(weights, inputs, outputs, 0, batch)  # compiles now, inside load_ns

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            compiled(weights, inputs, outputs, i, batch)

    notes = {
        "call": "@njit forward(weights, inputs, outputs, i, batch), compiled at load",
        "threads": "njit without parallel=True: the calling thread only; --threads changes nothing",
    }
    return Prepared(loop, numba.__version__, notes)
