"""What a kernel is: one timed call, how to check its result, and its labels.

Family modules (``elementwise``, ``batchdot``, ``cuda``) yield ``Kernel``
objects (runnable here) or ``NotRun`` ones (with the reason); the runner
turns either into a record. Inputs and references live in the closures, so
a family can free one operation's arrays before building the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

FAMILIES = ("elementwise", "batchdot", "cuda")


def kernel_id(op: str, impl: str, *, cuda: bool = False) -> str:
    return f"kernel-{'cuda-' if cuda else ''}{op}-{impl}"


@dataclass(frozen=True)
class Labels:
    """Everything a record says about a kernel besides its figures."""

    id: str
    family: str
    op: str
    impl: str
    runtime: str
    runtime_version: str | None
    shape: Sequence[int]
    dtype: str
    device: str = "cpu"
    reference: str | None = None  # the id (or description) the result is checked against
    notes: str | None = None


@dataclass(frozen=True)
class Kernel:
    labels: Labels
    call: Callable[[], object]
    # Max abs error of one call's result against the reference.
    error_of: Callable[[object], float]
    tolerance: float
    sync: Callable[[], None] | None = None
    # Untimed calls before calibration; kernels with a slow first call want more.
    warmup: int = 1


@dataclass(frozen=True)
class NotRun:
    """A kernel that cannot run here (``skipped``) or whose setup already failed."""

    labels: Labels
    reason: str
    status: Literal["skipped", "failed"] = "skipped"


Item = Kernel | NotRun
Wanted = Callable[[str], bool]


def want_all(_: str) -> bool:
    return True
