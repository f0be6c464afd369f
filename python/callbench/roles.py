"""What a driver is for besides the main table: flags set on its registry line.

The sweeps and the report's sections find their drivers by these flags, never
by a list of ids of their own, so a driver is declared once: on its line in
callbench/registry.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

SWEEP = "sweep"  # runs in the batch and thread sweeps: its runtime's fastest way
FLOOR = "floor"  # the hand-written loop the main table's ratios are taken against
# Runs a user's torch.export program (``--torch``): the program itself where the driver
# loads our state_dict, else the artifact made from the program under its artifact's name.
TORCH_PROGRAM = "torch_program"
# Calls the model on a CUDA device; skipped, saying why, where there is none.
GPU = "gpu"
# The platform's per-call floor on the GPU (cpp-cuda-floor): each call's copies, launch and
# synchronize around an empty kernel. It computes nothing, so its outputs are checked by
# their echo (each call's outputs are its inputs' leading bytes), it is no way to call the
# model (no CPU-or-GPU choice takes it), and the report sets every GPU row beside it.
GPU_FLOOR = "gpu_floor"
# Takes one sample a call only (e.g. torch.compile on the GPU, which compiles per shape).
BATCH_ONE = "batch_one"
# How a driver's callers hold the model (contract 4), as its runtime documents: one loaded
# handle called from every caller at once, or one loaded by each caller.
SHARED = "shared"
PER_CALLER = "per caller"
# Runs only at N > 1 callers: at one caller it is its twin's row (the same call, the
# other way of holding the model), so no group of one caller and no count takes it.
CALLERS_ONLY = "callers_only"
# The runtime's default set-up for many callers, beside a row set up for them its docs' way
# (ExecuTorch's XNNPACK workspace shared by every method, OpenVINO's CPU pinning on): run at
# N > 1 callers only (CALLERS_ONLY too), to show what the default costs there. It holds the
# model as its row does, so no "a model per caller against a shared one" reading takes it.
RUNTIME_DEFAULT = "runtime_default"
# Contract 7's --gathered: the driver's batcher calls at the size it gathered, its runtime
# taking a changing batch without reloading (registry.gathered); the others pad to B.
GATHERED = "gathered"


@dataclass(frozen=True)
class SeedRow:
    """One row of the seed study's table (shared/seeds/002_…)."""

    label: str
    seconds: float  # for 1,000,000 calls, on the seed author's machine


PYTHON_MODULE = SeedRow("Python (torch.nn.Module)", 124.0)
TORCHSCRIPT_FROM_PYTHON = SeedRow("TorchScript from Python", 54.0)
TORCHSCRIPT_FROM_JAVA = SeedRow("TorchScript from Java", 35.0)
TORCHSCRIPT_FROM_CPP = SeedRow("TorchScript from C++", 44.0)
CPP_API = SeedRow("C++ API (LibTorch modules)", 9.0)
SEED_ROWS = (PYTHON_MODULE, TORCHSCRIPT_FROM_PYTHON, TORCHSCRIPT_FROM_JAVA,
             TORCHSCRIPT_FROM_CPP, CPP_API)  # fmt: skip


class Call(IntEnum):
    """How a driver stands for its seed row; the seed's table lists them in this order."""

    AS_WRITTEN = 0  # the seed's code exactly as its author wrote it (a -seed driver)
    OURS = 1  # our call of the same path
    FAST_PATH = 2  # the path's fastest way

    @property
    def words(self) -> str:
        return {0: "the seed's call as written", 1: "our call", 2: "the fast path"}[self.value]


@dataclass(frozen=True)
class SeedRole:
    """The driver is one of ``row``'s drivers in the seed's table beside ours."""

    row: SeedRow
    call: Call
    how: str  # how this driver makes the call, in a few words
