"""TorchScript the way the seed calls it: ``torch.jit.load``, then the module in a loop."""

import time

import torch

from callbench.independent.cli import finish, inputs, parse

args = parse()
torch.set_num_threads(args.threads)
x = torch.from_numpy(inputs(args))
t0 = time.perf_counter_ns()
model = torch.jit.load(str(args.models / "mlp_torchscript.pt"))  # type: ignore[no-untyped-call]
load_ns = time.perf_counter_ns() - t0
for i in range(args.warmup):
    model(x[i % args.calls])
repeat_ns = []
for _ in range(args.repeats):
    outputs: list[float] = []
    t0 = time.perf_counter_ns()
    for sample in x:
        outputs.extend(model(sample).flatten().tolist())
    repeat_ns.append(time.perf_counter_ns() - t0)
finish(args, "independent-python-torchscript", torch.__version__, outputs, repeat_ns, load_ns)
