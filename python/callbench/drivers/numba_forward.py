"""python-numba: the forward pass as an ``@njit`` function, called once per call.

The function is ordinary Python over the raw weights (``mlp_weights.f32``) at
the width they hold,
compiled by numba at load (its compile time is in ``load_ns``). Each call
passes three arrays and two integers; numba's dispatcher checks the
arguments' types on every call, which is most of a call's cost.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers.raw_weights import read_raw

IN = 2


def make_forward(hidden: int) -> Callable[[np.ndarray, np.ndarray, np.ndarray, int, int], None]:
    """The forward pass for hidden width ``hidden``, as a plain Python function for numba to
    compile: its sizes and offsets are closure constants, so at the reference's 8 every loop
    has a fixed trip count. It reads raw_weights.RawWeights.for_loops' layout (b.weight
    transposed), the second layer a contiguous loop as in the C floors."""
    a_bias = IN * hidden
    b_weight_t = a_bias + hidden
    b_bias = b_weight_t + hidden * hidden
    c_weight = b_bias + hidden
    c_bias = c_weight + hidden

    def forward(w: np.ndarray, x: np.ndarray, y: np.ndarray, i: int, batch: int) -> None:
        """Call i: rows ``x[i*batch:(i+1)*batch]`` through the MLP into ``y``."""
        zero = np.float32(0.0)
        h1 = np.empty(hidden, np.float32)
        h2 = np.empty(hidden, np.float32)
        for s in range(i * batch, (i + 1) * batch):
            x0, x1 = x[s, 0], x[s, 1]
            for j in range(hidden):
                h1[j] = max(w[a_bias + j] + w[IN * j] * x0 + w[IN * j + 1] * x1, zero)
                h2[j] = w[b_bias + j]
            for k in range(hidden):
                hk = h1[k]
                column = b_weight_t + hidden * k
                for j in range(hidden):
                    h2[j] += w[column + j] * hk
            out = w[c_bias]
            for j in range(hidden):
                out += w[c_weight + j] * max(h2[j], zero)
            y[s, 0] = out

    return forward


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    raw = read_raw(options)
    weights = raw.for_loops()
    compiled = numba.njit(make_forward(raw.hidden))
    batch = options.batch
    compiled(weights, inputs, outputs, 0, batch)  # compiles now, inside load_ns

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            compiled(weights, inputs, outputs, i, batch)

    notes = {
        "call": "@njit forward(weights, inputs, outputs, i, batch), compiled at load",
        "threads": "njit without parallel=True: the calling thread only; --threads changes nothing",
    }
    return Model(loop, numba.__version__, notes)
