"""python-torch-compile-cuda: the model (our MLP, or the user's program moved to the device)
compiled by ``torch.compile(mode="reduce-overhead")`` on the GPU (Inductor's kernels,
replayed through CUDA graphs), called like python-eager-cuda: samples copied in, results
copied back, each call. torch.compile compiles again for each new shape (seconds each), so
this row runs at batch 1 only."""

from __future__ import annotations

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor
from callbench.drivers import cuda_common
from callbench.drivers.cuda_model import model_on
from callbench.errors import UsageError

# Calls that let reduce-overhead record its CUDA graph before the protocol's warm-up.
COMPILE_CALLS = 3


@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    if options.batch != 1:
        raise UsageError("python-torch-compile-cuda runs at batch 1 only: torch.compile "
                         "compiles again for each shape, seconds each")  # fmt: skip
    gpu = cuda_common.on_device(options, inputs, outputs, model_on)
    compiled = torch.compile(gpu.model, mode="reduce-overhead")
    with torch.inference_mode():
        for _ in range(COMPILE_CALLS - 1):  # the loop's own check is the last of them
            compiled(*(x[0].to(gpu.device) for x in gpu.xs))
        loop = cuda_common.copying_loop(compiled, gpu, options.batch)
    return Model(loop, torch.__version__, cuda_common.notes(
        'torch.compile(mode="reduce-overhead"): x.to(\'cuda\') + call + copy back, each call; '
        "batch 1 only"),
        context=torch.inference_mode)  # fmt: skip
