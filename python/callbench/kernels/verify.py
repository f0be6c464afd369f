"""Check a kernel's result: max abs error against the reference, and a tolerance.

The references themselves (NumPy / SciPy) are spot-checked against Python's
``math`` module on a few elements, so a broken reference cannot make every
kernel "pass" by agreeing with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.floating]

# Float64 elementwise kernels may differ from NumPy by a few ulps (different
# vectorised libm); 1e-12 relative is far above that and far below any bug.
FLOAT64_RTOL = 1e-12


def as_numpy(result: object) -> FloatArray:
    """A NumPy array from a NumPy array or a (CPU or CUDA) torch tensor."""
    if isinstance(result, np.ndarray):
        return result
    detach = getattr(result, "detach", None)
    if detach is not None:  # torch.Tensor, imported lazily by the families that use it
        return np.asarray(detach().cpu().numpy())
    get = getattr(result, "get", None)
    if get is not None:  # cupy.ndarray
        return np.asarray(get())
    raise TypeError(f"cannot compare a {type(result).__name__} with the reference")


def max_abs_error(result: object, reference: FloatArray) -> float:
    """Largest ``|result - reference|``; shape mismatches and NaNs count as infinite."""
    got = as_numpy(result)
    if got.shape != reference.shape:
        return math.inf
    diff = np.abs(got.astype(np.float64) - reference.astype(np.float64))
    if diff.size == 0:
        return 0.0
    worst = float(np.max(diff))
    return worst if math.isfinite(worst) else math.inf


def relative_tolerance(reference: FloatArray, rtol: float = FLOAT64_RTOL) -> float:
    """``rtol`` times the largest magnitude in the reference (at least ``rtol``)."""
    scale = float(np.max(np.abs(reference))) if reference.size else 0.0
    return rtol * max(1.0, scale)


def spot_check(
    reference: FloatArray,
    inputs: FloatArray,
    exact: Callable[[float], float],
    *,
    samples: int = 64,
    rtol: float = 1e-13,
) -> str | None:
    """``None`` if ``reference`` matches ``exact`` (a ``math`` function) on sampled elements."""
    flat_in, flat_ref = inputs.reshape(-1), reference.reshape(-1)
    picks = np.linspace(0, flat_in.size - 1, num=min(samples, flat_in.size)).astype(np.int64)
    for i in picks.tolist():
        want = exact(float(flat_in[i]))
        if not math.isclose(float(flat_ref[i]), want, rel_tol=rtol, abs_tol=rtol):
            return f"reference gives {float(flat_ref[i])!r} at element {i}, math gives {want!r}"
    return None


def spot_check_columns(
    reference: FloatArray,
    inputs: FloatArray,
    exact: Callable[[Sequence[float]], float],
    *,
    samples: int = 8,
    rtol: float = 1e-12,
) -> str | None:
    """Like ``spot_check`` for a reduction over axis 0: sampled columns against ``exact``."""
    cols = np.linspace(0, inputs.shape[1] - 1, num=min(samples, inputs.shape[1])).astype(np.int64)
    for j in cols.tolist():
        want = exact(inputs[:, j].tolist())
        if not math.isclose(float(reference[j]), want, rel_tol=rtol, abs_tol=rtol):
            return f"reference gives {float(reference[j])!r} in column {j}, math gives {want!r}"
    return None
