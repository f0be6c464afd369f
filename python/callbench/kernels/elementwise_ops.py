"""The seed's elementwise operations: each one's reference, its exact check, and how
NumPy/SciPy, numexpr and torch spell it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy
import scipy.special

from callbench.kernels.verify import FloatArray, spot_check, spot_check_columns


def _exact_logsumexp(column: Sequence[float]) -> float:
    top = max(column)
    return top + math.log(math.fsum(math.exp(v - top) for v in column))


@dataclass(frozen=True)
class Op:
    """One operation: its reference, its exact check, and how each library spells it."""

    name: str
    reference_impl: str  # "numpy" or "scipy"
    reference: Callable[[FloatArray], FloatArray]
    # Writes into ``out`` (None when the reference has no ``out=``).
    reference_out: Callable[[FloatArray, FloatArray], object] | None
    check: Callable[[FloatArray, FloatArray], str | None]
    numexpr: str | None  # the numexpr expression, None when numexpr has no such function
    torch_name: str | None
    reduces: bool = False
    notes: str | None = None


def _logsumexp(x: FloatArray) -> FloatArray:
    return np.asarray(scipy.special.logsumexp(x, axis=0))


OPS: dict[str, Op] = {
    "exp": Op(
        "exp",
        "numpy",
        np.exp,
        lambda x, out: np.exp(x, out=out),
        lambda ref, x: spot_check(ref, x, math.exp),
        "exp(x)",
        "exp",
    ),
    "log": Op(
        "log",
        "numpy",
        np.log,
        lambda x, out: np.log(x, out=out),
        lambda ref, x: spot_check(ref, x, math.log),
        "log(x)",
        "log",
    ),
    "erf": Op(
        "erf",
        "scipy",
        lambda x: np.asarray(scipy.special.erf(x)),
        lambda x, out: scipy.special.erf(x, out=out),
        lambda ref, x: spot_check(ref, x, math.erf),
        None,
        "erf",
    ),
    # Not an operation of its own: the seed's numexpr stand-in for erf, kept
    # as its own row so it is never read as an erf time.
    "tanh": Op(
        "tanh",
        "numpy",
        np.tanh,
        lambda x, out: np.tanh(x, out=out),
        lambda ref, x: spot_check(ref, x, math.tanh),
        "tanh(x)",
        None,
        notes="the seed's numexpr stand-in for erf (numexpr has no erf); this is tanh",
    ),
    "logsumexp": Op(
        "logsumexp",
        "scipy",
        _logsumexp,
        None,
        lambda ref, x: spot_check_columns(ref, x, _exact_logsumexp),
        None,  # numexpr cannot nest a reduction: the seed's three-step version below
        "logsumexp",
        reduces=True,
        notes="over axis 0",
    ),
}
ORDER = ("exp", "log", "erf", "tanh", "logsumexp")
