"""python-cuda-graph: our MLP's forward captured once as a CUDA graph
(``torch.cuda.CUDAGraph``) over static device tensors, replayed each call. Each call
copies its samples into a pinned host buffer, then to the static input (async), replays
the graph, copies the static output back to a pinned buffer (async), waits for the stream
and stores the result: the fewest launches and copies PyTorch documents for a small model.
"""

from __future__ import annotations

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import cuda_common
from callbench.drivers.checks import check_output

# Forward passes on a side stream before capture, as torch.cuda.graphs asks.
WARM_UP = 3


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    gpu = cuda_common.on_device(options, inputs, outputs)
    model, device, x, y = gpu.model, gpu.device, gpu.x, gpu.y
    host_x = torch.empty(x.shape[1:], dtype=x.dtype).pin_memory()
    host_y = torch.empty(y.shape[1:], dtype=y.dtype).pin_memory()
    with torch.inference_mode():
        static_x = x[0].to(device)
        side = torch.cuda.Stream()  # type: ignore[no-untyped-call]
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(WARM_UP):
                model(static_x)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = model(static_x)
    check_output(gpu.path, static_y, options.batch)
    stream = torch.cuda.current_stream()

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            host_x.copy_(x[i])
            static_x.copy_(host_x, non_blocking=True)
            graph.replay()
            host_y.copy_(static_y, non_blocking=True)
            stream.synchronize()
            y[i].copy_(host_y)

    return Model(loop, torch.__version__, cuda_common.notes(
        "pinned copy in + CUDAGraph.replay + pinned copy out + synchronize, each call"),
        context=torch.inference_mode)  # fmt: skip
