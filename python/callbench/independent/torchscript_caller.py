"""TorchScript the way the seed calls it: ``torch.jit.load``, then the module in a loop."""

import time

import torch

from callbench.independent.cli import inputs, parse, serve, warm_up

args = parse()
torch.set_num_threads(args.threads)
x = torch.from_numpy(inputs(args))
t0 = time.perf_counter_ns()
model = torch.jit.load(str(args.models / "mlp_torchscript.pt"))  # type: ignore[no-untyped-call]
load_ns = time.perf_counter_ns() - t0
for i in warm_up(args):
    model(x[i])


def calls(k: int) -> list[float]:
    """Calls 0 .. k-1, as a user's loop would make them."""
    outputs: list[float] = []
    for sample in x[:k]:
        outputs.extend(model(sample).flatten().tolist())
    return outputs


serve(args, "independent-python-torchscript", torch.__version__, calls, load_ns)
