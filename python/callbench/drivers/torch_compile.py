"""python-torch-compile: the eager model through ``torch.compile(fullgraph=True)`` (Inductor, CPU).

The model is built from ``mlp_state_dict.pt`` (in a ``--torch`` run, the user's
program's ``ep.module()``), compiled, and called once under
``torch.inference_mode()`` inside setup, so the compilation (Dynamo tracing,
Inductor's code generation, g++ on the generated C++) is the record's load
time. Compiling outside inference mode gives a graph that keeps autograd's
bookkeeping, and slower calls. ``mode="reduce-overhead"`` is left out: it
means CUDA graphs and gains nothing on the CPU.

Inductor's on-disk cache (the default, under the temp folder) is left on, as a
user has it: the first run here compiles from scratch, later runs find the
compiled code in the cache. The notes say which it was.
"""

from __future__ import annotations

from typing import Any

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor
from callbench.drivers.torch_common import (
    models_path,
    module_loop,
    program_loop,
    program_module,
    set_threads,
)
from callbench.model.artifacts import STATE_DICT
from callbench.model.wide_mlp import mlp_from_state_dict


def _our_model(options: Options) -> Any:
    return mlp_from_state_dict(models_path(options, STATE_DICT))  # any width


@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    from torch._dynamo.utils import counters

    set_threads(options.threads)
    program = program_module(options)
    compiled = torch.compile(program if program is not None else _our_model(options),
                             fullgraph=True)  # fmt: skip
    hits_before = counters["inductor"]["fxgraph_cache_hit"]
    # The loop's first call (its output check) compiles, under inference_mode.
    if program is not None:
        prepared = program_loop(compiled, options, inputs, outputs, inference=True)
    else:
        (x,), (y,) = inputs, outputs
        path = models_path(options, STATE_DICT)
        prepared = module_loop(compiled, path, options, x, y, inference=True)
    cache = "hit" if counters["inductor"]["fxgraph_cache_hit"] > hits_before else "miss"
    notes = {
        "call": "torch.compile(fullgraph=True) module called under inference_mode",
        "compile": "in load time (first call)",
        "inductor_fx_graph_cache": cache,
        "intra_op_threads": torch.get_num_threads(),
    }
    return Model(prepared.loop, torch.__version__, notes, context=prepared.context)
