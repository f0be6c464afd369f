"""python-eager: the model as a torch.nn.Module, one module call per call (the seed's way).

The plain variant is the seed's loop as written, autograd bookkeeping and all;
``-inference`` adds ``torch.inference_mode()``, PyTorch's documented fastest
mode for code that never calls backward.

The module is our MLP rebuilt from its state_dict, or, in a ``--torch`` run,
the user's program as ``torch.export`` hands it back: ``ep.module()``, called
with every input and giving every output (contract 3).
"""

from __future__ import annotations

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor, takes_callers
from callbench.drivers.torch_common import (
    SHARED_MODULE,
    models_path,
    module_loop,
    program_loop,
    program_module,
    set_threads,
)
from callbench.model.artifacts import STATE_DICT
from callbench.model.wide_mlp import mlp_from_state_dict


def setup(options: Options, inputs: Arrays, outputs: Arrays, *, inference: bool) -> Model:
    set_threads(options.threads)
    how = SHARED_MODULE if inference else None  # the seed's plain loop stays one caller
    module = program_module(options)
    if module is not None:
        return program_loop(module, options, inputs, outputs, inference=inference,
                            shared_how=how)  # fmt: skip
    path = models_path(options, STATE_DICT)
    model = mlp_from_state_dict(path)  # any width of the family
    (x,), (y,) = inputs, outputs
    return module_loop(model, path, options, x, y, inference=inference, shared_how=how)


@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return setup(options, inputs, outputs, inference=False)


@takes_callers
@every_tensor
def inference(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return setup(options, inputs, outputs, inference=True)
