"""python-torchscript: ``torch.jit.load`` of the exported TorchScript, one call per call.

``-frozen`` is the documented inference path: ``torch.jit.freeze`` folds the
weights into the graph, ``optimize_for_inference`` fuses what it can, and the
calls run under ``torch.inference_mode()``.

In a ``--torch`` run the TorchScript is the user's program traced (``user_torch``),
called with every input and giving every output (contract 3); where its trace bakes the
batch in, the trace made at ``--batch`` (``trace_for``).
"""

from __future__ import annotations

from pathlib import Path

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor, takes_callers
from callbench.drivers.torch_common import (
    is_program_run,
    load_torchscript,
    module_loop,
    program_loop,
    set_threads,
)
from callbench.errors import UsageError
from callbench.model.artifacts import TORCHSCRIPT, require, trace_at_batch


def trace_for(options: Options) -> Path:
    """The TorchScript a row loads at its ``--batch``: ``mlp_torchscript.pt`` (a trace of every
    batch), else the trace made at this batch alone (contract: "A trace per batch"). Where the
    folder holds another batch's trace only, the usage line naming the file looked for."""
    models = options.models
    if (models / TORCHSCRIPT).is_file() or not any(models.glob(trace_at_batch(TORCHSCRIPT, "*"))):
        return require(models, TORCHSCRIPT)
    own = models / trace_at_batch(TORCHSCRIPT, options.batch)
    if not own.is_file():
        raise UsageError(f"--batch {options.batch}: no trace at this batch ({own} missing; "
                         "the program's trace bakes its batch in)")  # fmt: skip
    return own


def setup(options: Options, inputs: Arrays, outputs: Arrays, *, frozen: bool) -> Model:
    set_threads(options.threads)
    shared = SHARED_SCRIPT if frozen else None  # the plain row stays one caller
    path = trace_for(options)
    module = load_torchscript(path)
    if frozen:
        module = torch.jit.optimize_for_inference(torch.jit.freeze(module))
    if is_program_run(options):
        how = "frozen, optimize_for_inference, " if frozen else ""
        return program_loop(module, options, inputs, outputs, inference=frozen, path=path,
                            call=f"module(*inputs), torch.jit.load of the program traced, "
                            f"{how}one call a call", shared_how=shared)  # fmt: skip
    (x,), (y,) = inputs, outputs
    return module_loop(module, path, options, x, y, inference=frozen, shared_how=shared)


# Contract 4: PyTorch's notes on TorchScript inference describe one or more inference threads
# running a model's forward, each through a JIT interpreter of its own; the frozen row's
# callers share the module so.
SHARED_SCRIPT = (
    "one ScriptModule, called from every caller's thread, each in its own inference_mode"
)


@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return setup(options, inputs, outputs, frozen=False)


@takes_callers
@every_tensor
def frozen(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return setup(options, inputs, outputs, frozen=True)
