"""python-eager-cuda: our MLP's torch.nn module on the GPU, called the plain way. Each
call copies its samples to the device, runs the forward there and copies the result back
into the outputs; the copy back waits for the GPU, so every call is complete when it
returns. Calls run under torch.inference_mode(), entered once."""

from __future__ import annotations

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import cuda_common
from callbench.drivers.checks import check_output


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    gpu = cuda_common.on_device(options, inputs, outputs)
    model, device, x, y = gpu.model, gpu.device, gpu.x, gpu.y
    with torch.inference_mode():
        check_output(gpu.path, model(x[0].to(device)), options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i].copy_(model(x[i].to(device)))

    return Model(loop, torch.__version__,
                    cuda_common.notes("x.to('cuda') + module(x) + copy back, each call"),
                    context=torch.inference_mode)  # fmt: skip
