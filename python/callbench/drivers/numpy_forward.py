"""python-numpy: the forward pass written by hand in NumPy, weights from mlp_weights.f32.

The floor for Python: no framework, only the three small matrix products.
"""

from __future__ import annotations

import numpy as np

from callbench.driverkit.model import Prepared
from callbench.driverkit.options import Options
from callbench.errors import ArtifactError
from callbench.model.architecture import LAYERS, WEIGHT_COUNT
from callbench.model.artifacts import WEIGHTS, require


def read_layers(options: Options) -> list[tuple[np.ndarray, np.ndarray]]:
    """(W transposed to [in, out], bias) per layer, from the raw weights file."""
    path = require(options.models, WEIGHTS)
    expected = WEIGHT_COUNT
    flat = np.fromfile(path, dtype="<f4")
    if flat.size != expected or path.stat().st_size != 4 * expected:
        raise ArtifactError(
            path, f"holds {path.stat().st_size} bytes, the MLP needs {4 * expected}"
        )
    if not np.isfinite(flat).all():
        raise ArtifactError(path, "holds NaN or Inf weights")
    layers = []
    offset = 0
    for _, fan_in, fan_out in LAYERS:
        w = flat[offset : offset + fan_out * fan_in].reshape(fan_out, fan_in)
        offset += fan_out * fan_in
        b = flat[offset : offset + fan_out]
        offset += fan_out
        layers.append((np.ascontiguousarray(w.T), b.copy()))
    return layers


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    (w1, b1), (w2, b2), (w3, b3) = read_layers(options)
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    maximum = np.maximum

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            h = maximum(x[i] @ w1 + b1, 0)
            h = maximum(h @ w2 + b2, 0)
            y[i] = h @ w3 + b3

    return Prepared(loop, np.__version__)
