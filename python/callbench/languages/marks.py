"""The marks a registry line puts on a driver: each returns the spec with a role or a
property set (``swept(callers(python.driver(...), SHARED))``), so the registry is one
declaration a driver and what a mark means is said here, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from callbench.drivers.cuda_common import torch_unavailable
from callbench.languages.spec import DriverSpec
from callbench.roles import (
    BATCH_ONE,
    CALLERS_ONLY,
    FLOOR,
    GATHERED,
    GPU,
    GPU_FLOOR,
    PER_CALLER,
    RUNTIME_DEFAULT,
    SWEEP,
    TORCH_PROGRAM,
    Call,
    SeedRole,
    SeedRow,
)


def swept(spec: DriverSpec) -> DriverSpec:
    """The driver also runs in the batch and thread sweeps (its runtime's fastest way)."""
    return replace(spec, roles=spec.roles | {SWEEP})


def floor(spec: DriverSpec) -> DriverSpec:
    """The main table's ratios are taken against this driver (a hand-written loop)."""
    return replace(spec, roles=spec.roles | {FLOOR})


def program(spec: DriverSpec) -> DriverSpec:
    """With ``--torch``, the driver runs the user's torch.export program (``TORCH_PROGRAM``)."""
    return replace(spec, roles=spec.roles | {TORCH_PROGRAM})


def gpu(spec: DriverSpec, needs: Callable[[], str | None] = torch_unavailable) -> DriverSpec:
    """The driver calls the model on a CUDA device (``GPU``): it runs only where ``needs``
    finds what it needs (and its own check, such as a C++ binary built, passes), and is
    recorded as skipped with the first line that fails elsewhere."""
    built = spec.available
    return replace(spec, roles=spec.roles | {GPU}, available=lambda: needs() or built())


def gpu_floor(spec: DriverSpec) -> DriverSpec:
    """The GPU's per-call floor (``GPU_FLOOR``): computes nothing, checked by its echo."""
    return replace(spec, roles=spec.roles | {GPU_FLOOR})


def callers(spec: DriverSpec, holds: str) -> DriverSpec:
    """The driver takes ``--callers N`` (contract 4), its callers holding the model as
    ``holds`` says (``roles.SHARED`` or ``roles.PER_CALLER``)."""
    return replace(spec, callers=holds)


def gathered(spec: DriverSpec) -> DriverSpec:
    """The driver takes ``--gathered`` (contract 7): its batcher's calls at the size they
    gathered, its runtime taking a changing batch without reloading (``GATHERED``)."""
    return replace(spec, roles=spec.roles | {GATHERED})


def mlp_only(spec: DriverSpec) -> DriverSpec:
    """A plain caller written for our MLP alone: a user's model skips it, saying why."""
    return replace(spec, mlp_only=True)


def callers_only(spec: DriverSpec) -> DriverSpec:
    """A model held per caller where its twin shares it: run at N > 1 callers only."""
    return replace(callers(spec, PER_CALLER), roles=spec.roles | {CALLERS_ONLY})


def runtime_default(spec: DriverSpec, of: str, holds: str) -> DriverSpec:
    """The runtime's default set-up for many callers (``roles.RUNTIME_DEFAULT``) beside the
    row ``of`` that sets them up its docs' way, its callers holding the model as ``holds``
    says, as that row's do: run at N > 1 only."""
    return replace(callers(spec, holds), roles=spec.roles | {CALLERS_ONLY, RUNTIME_DEFAULT},
                   default_of=of)  # fmt: skip


def batch_one(spec: DriverSpec) -> DriverSpec:
    """The driver takes one sample a call only (``BATCH_ONE``): no batch sweep takes it."""
    return replace(spec, roles=spec.roles | {BATCH_ONE})


def seed_row(row: SeedRow, call: Call, how: str, spec: DriverSpec) -> DriverSpec:
    """The driver stands for ``row`` of the seed's table, making ``call`` as ``how`` says."""
    return replace(spec, seed=SeedRole(row, call, how))
