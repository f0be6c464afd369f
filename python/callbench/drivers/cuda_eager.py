"""python-eager-cuda: the model on the GPU, called the plain way: our MLP's torch.nn module,
or in a ``--torch`` run the user's program moved there (``move_to_device_pass``, then
``ep.module()``). Each call copies its samples to the device, runs the forward there and
copies each result back into the outputs; the copy back waits for the GPU, so every call is
complete when it returns. Calls run under torch.inference_mode(), entered once."""

from __future__ import annotations

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor
from callbench.drivers import cuda_common
from callbench.drivers.cuda_model import model_on


@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    gpu = cuda_common.on_device(options, inputs, outputs, model_on)
    with torch.inference_mode():
        loop = cuda_common.copying_loop(gpu.model, gpu, options.batch)
    return Model(loop, torch.__version__,
                 cuda_common.notes("x.to('cuda') + module(x) + copy back, each call"),
                 context=torch.inference_mode)  # fmt: skip
