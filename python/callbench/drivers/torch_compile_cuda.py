"""python-torch-compile-cuda: our MLP compiled by ``torch.compile(mode="reduce-overhead")``
on the GPU (Inductor's kernels, replayed through CUDA graphs), called like
python-eager-cuda: samples copied in, result copied back, each call. torch.compile
compiles again for each new shape (seconds each), so this row runs at batch 1 only."""

from __future__ import annotations

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import cuda_common
from callbench.drivers.checks import check_output
from callbench.errors import UsageError

# Calls that let reduce-overhead record its CUDA graph before the protocol's warm-up.
COMPILE_CALLS = 3


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    if options.batch != 1:
        raise UsageError("python-torch-compile-cuda runs at batch 1 only: torch.compile "
                         "compiles again for each shape, seconds each")  # fmt: skip
    gpu = cuda_common.on_device(options, inputs, outputs)
    device, x, y = gpu.device, gpu.x, gpu.y
    compiled = torch.compile(gpu.model, mode="reduce-overhead")
    with torch.inference_mode():
        for _ in range(COMPILE_CALLS):
            first = compiled(x[0].to(device))
        check_output(gpu.path, first, options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i].copy_(compiled(x[i].to(device)))

    return Model(loop, torch.__version__, cuda_common.notes(
        'torch.compile(mode="reduce-overhead"): x.to(\'cuda\') + call + copy back, each call'),
        context=torch.inference_mode)  # fmt: skip
