"""Elementwise math on a float64 square array (seed 000): exp, log, erf, logsumexp.

Each operation runs through its reference (NumPy or SciPy), numexpr, and
torch on the same array, returning a NumPy array like the seed did:
``torch.as_tensor`` shares the array's memory, ``torch.tensor`` copies it
(the ``-copy`` rows). The ``-out`` rows are the fastest documented way of
each library here: the same call writing into a preallocated output, so no
800 MB result is allocated (and page-faulted in) on every call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numexpr as ne
import numpy as np
import scipy
import scipy.special
import torch

from callbench.kernels.elementwise_ops import OPS, ORDER, Op
from callbench.kernels.kernel import Item, Kernel, Labels, NotRun, Wanted, kernel_id, want_all
from callbench.kernels.verify import (
    FLOAT64_RTOL,
    FloatArray,
    max_abs_error,
    relative_tolerance,
)

FAMILY = "elementwise"
SEED_SIZE = 10_000  # the seed's 10000 x 10000
QUICK_SIZE = 1_000
INPUT_SEED = 20220315  # the seed post's date: any fixed value makes runs repeatable

Call = Callable[[], object]


def make_input(size: int) -> FloatArray:
    """``size x size`` float64, uniform in [0, 1) like the seed's ``np.random.random``."""
    return np.random.default_rng(INPUT_SEED).random((size, size))


def _ne_logsumexp(x: FloatArray) -> FloatArray:
    """The seed's numexpr logsumexp: exp, column sums, log (no max shift)."""
    e = ne.evaluate("exp(x)", local_dict={"x": x})
    s = ne.evaluate("sum(e, axis=0)", local_dict={"e": e})
    return np.asarray(ne.evaluate("log(s)", local_dict={"s": s}))


def _to_numpy(t: torch.Tensor) -> FloatArray:
    """The seed's ``to_numpy``: ``x.cpu().detach().numpy()`` (no copy on the CPU)."""
    return np.asarray(t.cpu().detach().numpy())


def _torch_call(op: Op, x: FloatArray, wrap: Callable[[FloatArray], torch.Tensor]) -> Call:
    fn = getattr(torch, op.torch_name or "")
    if op.reduces:
        return lambda: _to_numpy(fn(wrap(x), dim=0))
    return lambda: _to_numpy(fn(wrap(x)))


def _torch_out_call(op: Op, x: FloatArray, out: FloatArray) -> Call:
    fn = getattr(torch, op.torch_name or "")
    out_t = torch.from_numpy(out)  # shares ``out``: the result lands in the NumPy array
    if op.reduces:

        def reduce_into() -> FloatArray:
            fn(torch.as_tensor(x), dim=0, out=out_t)
            return out

        return reduce_into

    def into() -> FloatArray:
        fn(torch.as_tensor(x), out=out_t)
        return out

    return into


def _numexpr_out_call(expr: str, x: FloatArray, out: FloatArray) -> Call:
    def into() -> FloatArray:
        ne.evaluate(expr, local_dict={"x": x}, out=out)
        return out

    return into


def _reference_out_call(op: Op, x: FloatArray, out: FloatArray) -> Call:
    assert op.reference_out is not None
    write = op.reference_out

    def into() -> FloatArray:
        write(x, out)
        return out

    return into


@dataclass(frozen=True)
class Impl:
    impl: str
    runtime: str
    version: str | None
    # Builds the call from (input, shared output buffer); None: cannot run, see ``reason``.
    build: Callable[[FloatArray, FloatArray], Call] | None
    notes: str | None = None
    reason: str | None = None


def impls(op: Op) -> list[Impl]:
    """Every way this family computes ``op``, the reference first."""
    ref_version = np.__version__ if op.reference_impl == "numpy" else scipy.__version__
    rows = [Impl(op.reference_impl, op.reference_impl, ref_version, lambda x, _: _ref_call(op, x))]
    if op.reference_out is not None:
        rows.append(
            Impl(
                f"{op.reference_impl}-out",
                op.reference_impl,
                ref_version,
                lambda x, out: _reference_out_call(op, x, out),
            )
        )
    expr = op.numexpr
    if expr is not None:
        rows.append(
            Impl(
                "numexpr",
                "numexpr",
                ne.__version__,
                lambda x, _: lambda: ne.evaluate(expr, local_dict={"x": x}),
                notes=op.notes,
            )
        )
        rows.append(
            Impl(
                "numexpr-out",
                "numexpr",
                ne.__version__,
                lambda x, out: _numexpr_out_call(expr, x, out),
                notes=op.notes,
            )
        )
    elif op.name == "logsumexp":
        rows.append(
            Impl(
                "numexpr",
                "numexpr",
                ne.__version__,
                lambda x, _: lambda: _ne_logsumexp(x),
                notes="the seed's three numexpr calls (exp, sum over axis 0, log), no max shift",
            )
        )
    elif op.name == "erf":
        rows.append(
            Impl(
                "numexpr",
                "numexpr",
                ne.__version__,
                None,
                reason="numexpr has no erf; the seed timed tanh instead (kernel-tanh-numexpr)",
            )
        )
    if op.torch_name is not None:
        rows += [
            Impl(
                "torch",
                "torch",
                torch.__version__,
                lambda x, _: _torch_call(op, x, torch.as_tensor),
                notes="torch.as_tensor: shares the NumPy array, no copy",
            ),
            Impl(
                "torch-out",
                "torch",
                torch.__version__,
                lambda x, out: _torch_out_call(op, x, out),
                notes="torch.as_tensor, result written into a preallocated NumPy array (out=)",
            ),
            Impl(
                "torch-copy",
                "torch",
                torch.__version__,
                lambda x, _: _torch_call(op, x, torch.tensor),
                notes="torch.tensor: copies the array first",
            ),
        ]
    return rows


def ids() -> list[str]:
    return [kernel_id(op, row.impl) for op in ORDER for row in impls(OPS[op])]


def _ref_call(op: Op, x: FloatArray) -> Call:
    ref = op.reference
    return lambda: ref(x)


def kernels(size: int, wanted: Wanted = want_all) -> Iterator[Item]:
    """The family's kernels on a ``size x size`` array, one operation at a time.

    An operation's input, reference and output buffer are built only if one of
    its kernels is wanted, and dropped before the next operation is built.
    """
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    x: FloatArray | None = None
    for name in ORDER:
        op = OPS[name]
        rows = [r for r in impls(op) if wanted(kernel_id(op.name, r.impl))]
        if not rows:
            continue
        if x is None:
            x = make_input(size)
        reference = op.reference(x)
        problem = op.check(reference, x)
        out = np.empty_like(reference)
        tolerance = relative_tolerance(reference, rtol_for(op, size))
        shape = [size, size]
        for row in rows:
            labels = Labels(
                id=kernel_id(op.name, row.impl),
                family=FAMILY,
                op=op.name,
                impl=row.impl,
                runtime=row.runtime,
                runtime_version=row.version,
                shape=shape,
                dtype="float64",
                reference=kernel_id(op.name, op.reference_impl),
                notes=row.notes or op.notes,
            )
            if row.build is None:
                yield NotRun(labels, row.reason or "cannot run")
            elif problem is not None:
                yield NotRun(labels, f"{op.reference_impl} {op.name}: {problem}", "failed")
            else:
                yield Kernel(
                    labels,
                    row.build(x, out),
                    _error_against(reference),
                    tolerance,
                )
        del reference, out


def rtol_for(op: Op, size: int) -> float:
    """Elementwise: a few ulps. A reduction over ``size`` values may also differ by the
    summation order, bounded by ``size * eps`` relative."""
    if op.reduces:
        return max(FLOAT64_RTOL, 2 * size * float(np.finfo(np.float64).eps))
    return FLOAT64_RTOL


def _error_against(reference: FloatArray) -> Callable[[object], float]:
    return lambda result: max_abs_error(result, reference)
