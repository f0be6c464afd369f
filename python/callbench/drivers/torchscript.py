"""python-torchscript: ``torch.jit.load`` of the exported TorchScript, one call per call.

``-frozen`` is the documented inference path: ``torch.jit.freeze`` folds the
weights into the graph, ``optimize_for_inference`` fuses what it can, and the
calls run under ``torch.inference_mode()``.

In a ``--torch`` run the TorchScript is the user's program traced (``user_torch``),
called with every input and giving every output (contract 3); where its trace bakes the
batch in, the trace made at ``--batch`` (``trace_for``).
"""

from __future__ import annotations

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor, takes_callers
from callbench.drivers.torch_common import (
    is_program_run,
    load_torchscript,
    module_loop,
    program_loop,
    set_threads,
    trace_for,
)


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
