"""python-numpy: the forward pass written by hand in NumPy, weights from mlp_weights.f32.

The floor for Python: no framework, only the three small matrix products.
"""

from __future__ import annotations

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers.raw_weights import read_raw


def read_layers(options: Options) -> list[tuple[np.ndarray, np.ndarray]]:
    """(W transposed to [in, out], bias) per layer, at the width the weights file holds."""
    return [(np.ascontiguousarray(w.T), b.copy()) for w, b in read_raw(options).layers()]


def augmented(layers: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Each layer as one [out, in + 1] matrix, its bias the last column: W @ [x; 1] = Wx + b."""
    return [np.ascontiguousarray(np.hstack([w.T, b[:, None]])) for w, b in layers]


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    """Three ``np.dot`` calls a call, each into a buffer made at load.

    NumPy's cost here is per function call and per array allocated, not per
    flop: folding each bias into its matrix (a row of ones under the
    activations) and writing into preallocated buffers with ``out=`` takes
    the six adds and every temporary out of the call.
    """
    a1, a2, a3 = augmented(read_layers(options))
    batch = options.batch
    x = inputs.reshape(-1, batch, 2)
    y = outputs.reshape(-1, 1, batch)  # call i's B outputs, as dot(a3, h2) shapes them
    # Column j holds sample j; the last row stays 1 (the bias input).
    x_in = np.ones((3, batch), dtype=np.float32)
    h1 = np.ones((a1.shape[0] + 1, batch), dtype=np.float32)
    h2 = np.ones((a2.shape[0] + 1, batch), dtype=np.float32)
    z1 = np.empty((a1.shape[0], batch), dtype=np.float32)
    z2 = np.empty((a2.shape[0], batch), dtype=np.float32)
    x_rows, h1_rows, h2_rows = x_in[:2], h1[:-1], h2[:-1]
    dot, maximum = np.dot, np.maximum

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            x_rows[...] = x[i].T
            maximum(dot(a1, x_in, out=z1), 0, out=h1_rows)
            maximum(dot(a2, h1, out=z2), 0, out=h2_rows)
            dot(a3, h2, out=y[i])

    notes = {"call": "np.dot with biases folded into the matrices, into buffers made at load"}
    return Model(loop, np.__version__, notes)
