"""Batched dot products (seed 001): row i of ``a`` with row i of ``b``, ``(B, D) -> (B, 1)``.

The seed's float32 ``a`` and ``b`` are (500, 500): a batch of 500 vectors of
length 500. The ways to compute it: ``torch.bmm`` on unsqueezed views,
multiply-and-sum, ``einsum``, ``matmul``, and ``torch.linalg.vecdot`` (the
documented function for exactly this). ``batchdot-backward`` adds
``.sum().backward()`` as the seed did; the gradients are reset to None at the
start of each call (what ``zero_grad`` does) so every call's result stands
alone and can be checked: d/da = b and d/db = a, exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import torch

from callbench.kernels.kernel import Item, Kernel, Labels, Wanted, kernel_id, want_all
from callbench.kernels.verify import FloatArray, max_abs_error

FAMILY = "batchdot"
SEED_BATCH = 500
SEED_DIM = 500
INPUT_SEED = 2018  # any fixed value: the same a, b on every run

Dot = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]

IMPLS: dict[str, tuple[Dot, str]] = {
    "bmm": (
        lambda a, b: torch.bmm(a.unsqueeze(1), b.unsqueeze(2)).squeeze(2),
        "torch.bmm(a.unsqueeze(1), b.unsqueeze(2)).squeeze(2)",
    ),
    "mulsum": ((lambda a, b: (a * b).sum(1, keepdim=True)), "(a * b).sum(1, keepdim=True)"),
    "einsum": (
        lambda a, b: torch.einsum("ij,ij->i", a, b).unsqueeze(1),
        "torch.einsum('ij,ij->i', a, b).unsqueeze(1)",
    ),
    "matmul": (
        lambda a, b: torch.matmul(a.unsqueeze(1), b.unsqueeze(2)).squeeze(2),
        "torch.matmul(a.unsqueeze(1), b.unsqueeze(2)).squeeze(2)",
    ),
    "vecdot": (
        lambda a, b: torch.linalg.vecdot(a, b, dim=1).unsqueeze(1),
        "torch.linalg.vecdot(a, b, dim=1).unsqueeze(1)",
    ),
}
OPS = ("batchdot", "batchdot-backward")


def ids(*, cuda: bool = False) -> list[str]:
    return [kernel_id(op, impl, cuda=cuda) for op in OPS for impl in IMPLS]


def make_inputs(batch: int, dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Two float32 ``(batch, dim)`` standard-normal tensors, like the seed's ``torch.randn``."""
    gen = torch.Generator().manual_seed(INPUT_SEED)
    a = torch.randn(batch, dim, dtype=torch.float32, generator=gen)
    b = torch.randn(batch, dim, dtype=torch.float32, generator=gen)
    return a, b


def reference(a: torch.Tensor, b: torch.Tensor) -> FloatArray:
    """The dot products in float64 NumPy: independent of torch and of float32 rounding."""
    a64, b64 = (
        a.detach().cpu().numpy().astype(np.float64),
        b.detach().cpu().numpy().astype(np.float64),
    )
    return np.asarray((a64 * b64).sum(axis=1, keepdims=True))


def tolerance(a: torch.Tensor, b: torch.Tensor) -> float:
    """A float32 summation bound: 2 * D * eps * the largest sum of |a_ij * b_ij| in a row."""
    terms = np.abs(a.detach().cpu().numpy().astype(np.float64) * b.detach().cpu().numpy())
    eps = float(np.finfo(np.float32).eps)
    return 2 * a.shape[1] * eps * max(1.0, float(terms.sum(axis=1).max()))


def _forward(dot: Dot, a: torch.Tensor, b: torch.Tensor) -> Callable[[], object]:
    return lambda: dot(a, b)


def _backward(dot: Dot, a: torch.Tensor, b: torch.Tensor) -> Callable[[], object]:
    def step() -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        a.grad = None
        b.grad = None
        y = dot(a, b)
        torch.autograd.backward(y.sum())
        return y.detach(), a.grad, b.grad

    return step


def _backward_error(ref: FloatArray, a: torch.Tensor, b: torch.Tensor) -> Callable[[object], float]:
    a_np, b_np = a.detach().cpu().numpy(), b.detach().cpu().numpy()

    def error(result: object) -> float:
        assert isinstance(result, tuple) and len(result) == 3
        y, grad_a, grad_b = result
        if grad_a is None or grad_b is None:
            return float("inf")
        return max(max_abs_error(y, ref), max_abs_error(grad_a, b_np), max_abs_error(grad_b, a_np))

    return error


def kernels(
    batch: int = SEED_BATCH,
    dim: int = SEED_DIM,
    wanted: Wanted = want_all,
    *,
    device: str = "cpu",
    family: str = FAMILY,
    sync: Callable[[], None] | None = None,
) -> Iterator[Item]:
    """Forward and forward+backward kernels for every impl (``device`` "cpu" or "cuda")."""
    if batch < 1 or dim < 1:
        raise ValueError(f"batch and dim must be >= 1, got {batch} x {dim}")
    on_cuda = device != "cpu"
    if not any(wanted(i) for i in ids(cuda=on_cuda)):
        return
    a_cpu, b_cpu = make_inputs(batch, dim)
    ref, tol = reference(a_cpu, b_cpu), tolerance(a_cpu, b_cpu)
    a, b = a_cpu.to(device), b_cpu.to(device)
    for op in OPS:
        for impl, (dot, spelled) in IMPLS.items():
            labels = Labels(
                id=kernel_id(op, impl, cuda=on_cuda),
                family=family,
                op=op,
                impl=impl,
                runtime="torch",
                runtime_version=torch.__version__,
                shape=[batch, dim],
                dtype="float32",
                device=device,
                reference="float64 NumPy (a * b).sum(axis=1)",
                notes=spelled + (" + .sum().backward()" if op == "batchdot-backward" else ""),
            )
            if not wanted(labels.id):
                continue
            if op == "batchdot":
                yield Kernel(labels, _forward(dot, a, b), _error_of(ref), tol, sync, warmup=10)
            else:
                leaf_a = a.detach().clone().requires_grad_(True)
                leaf_b = b.detach().clone().requires_grad_(True)
                yield Kernel(
                    labels,
                    _backward(dot, leaf_a, leaf_b),
                    _backward_error(ref, leaf_a, leaf_b),
                    tol,
                    sync,
                    warmup=10,
                )


def _error_of(ref: FloatArray) -> Callable[[object], float]:
    return lambda result: max_abs_error(result, ref)
