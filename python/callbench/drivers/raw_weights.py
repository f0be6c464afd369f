"""The exported raw weights (mlp_weights.f32) as one flat float32 array, checked.

For the drivers whose forward pass reads the file's own layout (Cython, C,
numba, JAX): 105 floats, each layer's weight ``[out, in]`` row-major, then its
bias (docs/contract.md).
"""

from __future__ import annotations

import numpy as np

from callbench.driverkit.options import Options
from callbench.errors import ArtifactError
from callbench.model.architecture import WEIGHT_COUNT
from callbench.model.artifacts import WEIGHTS, require


def read_flat(options: Options) -> np.ndarray:
    """The 105 weights, C-contiguous float32; ArtifactError naming the file otherwise."""
    path = require(options.models, WEIGHTS)
    size = path.stat().st_size
    if size != 4 * WEIGHT_COUNT:
        raise ArtifactError(path, f"holds {size} bytes, the MLP needs {4 * WEIGHT_COUNT}")
    flat = np.ascontiguousarray(np.fromfile(path, dtype="<f4"), dtype=np.float32)
    if not np.isfinite(flat).all():
        raise ArtifactError(path, "holds NaN or Inf weights")
    return flat
