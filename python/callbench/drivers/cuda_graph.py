"""python-cuda-graph: the model's forward (our MLP, or the user's program moved to the
device) captured once at load as a CUDA graph (``torch.cuda.CUDAGraph``) over static device
tensors at the run's batch, replayed each call. Each call copies every input's samples into
a pinned host buffer, then to its static input (async), replays the graph, copies each
static output back to a pinned buffer (async), waits for the stream and stores the results:
the fewest launches and copies PyTorch documents for a small model."""

from __future__ import annotations

import torch

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor
from callbench.drivers import cuda_common
from callbench.drivers.cuda_model import model_on

# Forward passes on a side stream before capture, as torch.cuda.graphs asks.
WARM_UP = 3


def pinned_like(t: torch.Tensor) -> torch.Tensor:
    return torch.empty(t.shape[1:], dtype=t.dtype).pin_memory()


@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    gpu = cuda_common.on_device(options, inputs, outputs, model_on)
    model, device, xs, ys = gpu.model, gpu.device, gpu.xs, gpu.ys
    with torch.inference_mode():
        static_xs = [x[0].to(device) for x in xs]
        side = torch.cuda.Stream()  # type: ignore[no-untyped-call]
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(WARM_UP):
                model(*static_xs)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            got = model(*static_xs)
    single = cuda_common.first_answer(gpu.path, got, ys, options.batch)
    static_ys = [got] if single else list(got)
    ins = [(pinned_like(x), s, x) for x, s in zip(xs, static_xs, strict=True)]
    outs = [(pinned_like(y), s, y) for y, s in zip(ys, static_ys, strict=True)]
    stream = torch.cuda.current_stream()

    if len(ins) == 1 and len(outs) == 1:
        ((host_x, static_x, x),), ((host_y, static_y, y),) = ins, outs

        def loop_one(start: int, stop: int) -> None:
            for i in range(start, stop):
                host_x.copy_(x[i])
                static_x.copy_(host_x, non_blocking=True)
                graph.replay()
                host_y.copy_(static_y, non_blocking=True)
                stream.synchronize()
                y[i].copy_(host_y)

        loop = loop_one
    else:

        def loop_every(start: int, stop: int) -> None:
            for i in range(start, stop):
                for host, static, x in ins:
                    host.copy_(x[i])
                    static.copy_(host, non_blocking=True)
                graph.replay()
                for host, static, _ in outs:
                    host.copy_(static, non_blocking=True)
                stream.synchronize()
                for host, _, y in outs:
                    y[i].copy_(host)

        loop = loop_every
    return Model(loop, torch.__version__, cuda_common.notes(
        "pinned copy in + CUDAGraph.replay + pinned copy out + synchronize, each call"),
        context=torch.inference_mode)  # fmt: skip
