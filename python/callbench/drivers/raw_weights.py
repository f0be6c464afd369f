"""The exported raw weights (mlp_weights.f32), checked, with the hidden width they hold.

For the drivers whose forward pass reads the file's own layout (NumPy, Cython,
C, numba, JAX): each layer's weight ``[out, in]`` row-major, then its bias
(docs/contract.md), H² + 5H + 1 floats for hidden width H. The width is read
from the file's size, so the same driver runs every width of the model family.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from callbench.driver_options import Options
from callbench.errors import DataError
from callbench.model.architecture import WEIGHT_COUNT, hidden_of_count, layers
from callbench.model.artifacts import WEIGHTS, require


@dataclass(frozen=True)
class RawWeights:
    """The file's floats (C-contiguous float32) and the hidden width their count gives."""

    flat: np.ndarray
    hidden: int

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(W as ``[out, in]``, bias) per layer: views into ``flat``."""
        found, offset = [], 0
        for _, fan_in, fan_out in layers(self.hidden):
            w = self.flat[offset : offset + fan_out * fan_in].reshape(fan_out, fan_in)
            offset += fan_out * fan_in
            found.append((w, self.flat[offset : offset + fan_out]))
            offset += fan_out
        return found

    def for_loops(self) -> np.ndarray:
        """The file's layout with b.weight transposed (``[in, out]``): what the C and Cython
        loops read, so the second layer's inner loop walks contiguous memory and each
        hidden unit still adds bias first, then k = 0, 1, ... (as the reference's order)."""
        (a, a_bias), (b, b_bias), (c, c_bias) = self.layers()
        parts = (a, a_bias, b.T, b_bias, c, c_bias)
        return np.ascontiguousarray(np.concatenate([p.reshape(-1) for p in parts]))


def read_raw(options: Options) -> RawWeights:
    """mlp_weights.f32 of ``options.models``; DataError naming the file when its size is
    no width's or it holds NaN/Inf."""
    path = require(options.models, WEIGHTS)
    size = path.stat().st_size
    hidden = hidden_of_count(size // 4) if size % 4 == 0 else None
    if hidden is None:
        raise DataError(
            path, f"holds {size} bytes, not the weights of a 2-H-H-1 MLP (4 x (H² + 5H + 1), "
            f"{4 * WEIGHT_COUNT} for the reference's H = 8)",
        )  # fmt: skip
    flat = np.ascontiguousarray(np.fromfile(path, dtype="<f4"), dtype=np.float32)
    if not np.isfinite(flat).all():
        raise DataError(path, "holds NaN or Inf weights")
    return RawWeights(flat, hidden)
