"""The seeds' GPU figures (seeds 000, 001, 003): torch on CUDA, transfers, CuPy.

- torch on CUDA: the elementwise operations on an array already on the
  device (seed 000's "400x" claim), the same including the round trip from
  and back to NumPy, the host-to-device copy alone, and the batched dot
  products (seed 001's GPU table).
- CuPy (seed 003): ``a = xp.arange(1000000).reshape(1000, -1); a.T * 2``
  with CuPy's raw allocator (the 2015 default) and its memory pool, plus an
  ``ElementwiseKernel`` (squared difference) and a ``ReductionKernel`` (L2
  norm per row). The NumPy rows of these run anywhere and are the references.

Without a CUDA device (or without CuPy, which is not a dependency and is
imported only here, lazily) the device rows are ``skipped`` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import torch

from callbench.cuda_probe import NO_CUPY, load_cupy, torch_reason
from callbench.kernels import batchdot, elementwise
from callbench.kernels.elementwise_ops import OPS
from callbench.kernels.kernel import Item, Kernel, Labels, NotRun, Wanted, kernel_id, want_all
from callbench.kernels.verify import FloatArray, max_abs_error, relative_tolerance

FAMILY = "cuda"
TORCH_OPS = ("exp", "log", "erf", "logsumexp")
TRANSPOSE_SHAPE = (1000, 1000)  # seed 003's arange(1000000).reshape(1000, -1)


def _labels(op: str, impl: str, shape: list[int], dtype: str, **kw: Any) -> Labels:
    on_device = kw.pop("device", "cuda")
    runtime = kw.pop("runtime", "torch")
    return Labels(
        id=kernel_id(op, impl, cuda=on_device == "cuda"),
        family=FAMILY,
        op=op,
        impl=impl,
        runtime=runtime,
        runtime_version=kw.pop("version", torch.__version__ if runtime == "torch" else None),
        shape=shape,
        dtype=dtype,
        device=on_device,
        **kw,
    )


def _torch_rows() -> list[tuple[str, str, str]]:
    """(op, impl, note) of the torch-on-CUDA rows besides batchdot."""
    rows = [("h2d", "torch", "torch.as_tensor(x).to('cuda')")]
    for op in TORCH_OPS:
        rows.append((op, "torch", "input already on the device; result left there"))
        rows.append((op, "torch-roundtrip", "NumPy -> device -> NumPy around the call"))
    return rows


CUPY_OPS = ("transpose-scale", "squared-diff", "l2norm")
CUPY_IMPLS = ("numpy", "cupy", "cupy-pool")


def ids() -> list[str]:
    """Every id of this family, without building anything."""
    out = [kernel_id(op, impl, cuda=True) for op, impl, _ in _torch_rows()]
    out += batchdot.ids(cuda=True)
    out += [kernel_id(op, i, cuda=i != "numpy") for op in CUPY_OPS for i in CUPY_IMPLS]
    return out


def _ref(op: str) -> str:
    """What a torch-on-CUDA row is checked against (and compared with in the report)."""
    if op == "h2d":
        return "the input array"
    return kernel_id(op, OPS[op].reference_impl)


def _torch_items(size: int, wanted: Wanted) -> Iterator[Item]:
    reason = torch_reason()
    shape = [size, size]
    rows = [r for r in _torch_rows() if wanted(kernel_id(r[0], r[1], cuda=True))]
    if not rows:
        return
    if reason is not None:
        for op, impl, note in rows:
            yield NotRun(
                _labels(op, impl, shape, "float64", notes=note, reference=_ref(op)), reason
            )
        return
    x = elementwise.make_input(size)
    x_dev = torch.as_tensor(x).to("cuda")
    sync = torch.cuda.synchronize
    for op, impl, note in rows:
        if op == "h2d":
            labels = _labels(op, impl, shape, "float64", notes=note, reference=_ref(op))
            yield Kernel(labels, lambda: torch.as_tensor(x).to("cuda"), _error(x), 0.0, sync)
            continue
        spec = OPS[op]
        ref = spec.reference(x)
        tol = relative_tolerance(ref, elementwise.rtol_for(spec, size))
        fn = getattr(torch, op)
        kwargs = {"dim": 0} if spec.reduces else {}
        labels = _labels(op, impl, shape, "float64", notes=note, reference=_ref(op))
        if impl == "torch":
            call: Callable[[], object] = _bind(fn, x_dev, kwargs)
        else:
            call = _roundtrip(fn, x, kwargs)
        yield Kernel(labels, call, _error(ref), tol, sync, warmup=3)


def _bind(
    fn: Callable[..., torch.Tensor], x: torch.Tensor, kwargs: dict[str, int]
) -> Callable[[], object]:
    return lambda: fn(x, **kwargs)


def _roundtrip(
    fn: Callable[..., torch.Tensor], x: FloatArray, kwargs: dict[str, int]
) -> Callable[[], object]:
    return lambda: fn(torch.as_tensor(x).to("cuda"), **kwargs).cpu().numpy()


def _error(ref: FloatArray) -> Callable[[object], float]:
    return lambda result: max_abs_error(result, ref)


def _transpose_scale(xp: Any) -> Any:
    """Seed 003's ``test(xp)``: allocate, reshape, transpose, scale."""
    a = xp.arange(1_000_000).reshape(1000, -1)
    return a.T * 2


def _cupy_items(size: int, wanted: Wanted) -> Iterator[Item]:
    """NumPy references (run here) and the CuPy rows, with and without the memory pool."""
    shape = [size, size]
    t_shape = list(TRANSPOSE_SHAPE)
    ops = [
        ("transpose-scale", t_shape, "int64", "xp.arange(1000000).reshape(1000, -1).T * 2"),
        ("squared-diff", shape, "float64", "ElementwiseKernel: z = (x - y) * (x - y)"),
        ("l2norm", shape, "float64", "ReductionKernel: sqrt(sum(x * x)) over axis 1"),
    ]
    impls = CUPY_IMPLS
    if not any(wanted(kernel_id(op, i, cuda=i != "numpy")) for op, *_ in ops for i in impls):
        return
    cp, reason = load_cupy()
    x: FloatArray | None = None
    for op, op_shape, dtype, note in ops:
        chosen = [i for i in impls if wanted(kernel_id(op, i, cuda=i != "numpy"))]
        if not chosen:
            continue
        if op != "transpose-scale" and x is None:
            x = elementwise.make_input(size)
        y = None if x is None else 1.0 - x
        if op == "transpose-scale":
            ref = np.asarray(_transpose_scale(np))
            tol = 0.0
        elif op == "squared-diff":
            assert x is not None and y is not None
            ref = (x - y) * (x - y)
            tol = relative_tolerance(ref)
        else:
            assert x is not None
            ref = np.sqrt((x * x).sum(axis=1))
            tol = relative_tolerance(ref, 2 * size * float(np.finfo(np.float64).eps))
        for impl in chosen:
            on_cuda = impl != "numpy"
            labels = _labels(
                op,
                impl,
                op_shape,
                dtype,
                device="cuda" if on_cuda else "cpu",
                runtime="cupy" if on_cuda else "numpy",
                version=_cupy_version(cp) if on_cuda else np.__version__,
                notes=note + ("; memory pool" if impl == "cupy-pool" else ""),
                reference=None if impl == "numpy" else kernel_id(op, "numpy"),
            )
            if not on_cuda:
                yield Kernel(labels, _numpy_call(op, x, y), _error(ref), tol, warmup=3)
            elif cp is None:
                yield NotRun(labels, reason or NO_CUPY)
            else:
                call = _cupy_call(cp, op, x, y, pool=impl == "cupy-pool")
                sync = cp.cuda.get_current_stream().synchronize
                yield Kernel(labels, call, _error(ref), tol, sync, warmup=3)


def _cupy_version(cp: Any) -> str | None:
    return None if cp is None else str(cp.__version__)


def _numpy_call(op: str, x: FloatArray | None, y: FloatArray | None) -> Callable[[], object]:
    if op == "transpose-scale":
        return lambda: _transpose_scale(np)
    assert x is not None and y is not None
    if op == "squared-diff":
        return lambda: (x - y) * (x - y)
    return lambda: np.sqrt((x * x).sum(axis=1))


def _cupy_call(
    cp: Any, op: str, x: FloatArray | None, y: FloatArray | None, *, pool: bool
) -> Callable[[], object]:
    """The CuPy call under the chosen allocator (None: raw cudaMalloc, no pool)."""
    allocator = cp.get_default_memory_pool().malloc if pool else None
    if op == "transpose-scale":
        body: Callable[[], object] = lambda: _transpose_scale(cp)  # noqa: E731
    elif op == "squared-diff":
        squared_diff = cp.ElementwiseKernel(
            "T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff"
        )
        x_dev, y_dev = cp.asarray(x), cp.asarray(y)
        body = lambda: squared_diff(x_dev, y_dev)  # noqa: E731
    else:
        l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
        x_dev = cp.asarray(x)
        body = lambda: l2norm(x_dev, axis=1)  # noqa: E731

    def call() -> object:
        with cp.cuda.using_allocator(allocator):
            return body()

    return call


def kernels(size: int, wanted: Wanted = want_all) -> Iterator[Item]:
    """Every CUDA-family kernel; the device rows are skipped when there is no device."""
    yield from _torch_items(size, wanted)
    reason = torch_reason()
    if reason is None:
        yield from batchdot.kernels(
            wanted=wanted, device="cuda", family=FAMILY, sync=torch.cuda.synchronize
        )
    else:
        for op in batchdot.OPS:
            for impl, (_, spelled) in batchdot.IMPLS.items():
                labels = _labels(
                    op,
                    impl,
                    [batchdot.SEED_BATCH, batchdot.SEED_DIM],
                    "float32",
                    notes=spelled,
                )
                if wanted(labels.id):
                    yield NotRun(labels, reason)
    yield from _cupy_items(size, wanted)
