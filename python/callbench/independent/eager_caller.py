"""The eager module the way the seed calls it: ``load_state_dict``, then the module in a loop."""

import time

import torch
from torch import nn

from callbench.independent.cli import inputs, parse, serve, warm_up


class MyNN(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.a = nn.Linear(2, hidden)
        self.b = nn.Linear(hidden, hidden)
        self.c = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c(torch.relu(self.b(torch.relu(self.a(x)))))  # type: ignore[no-any-return]


args = parse()
torch.set_num_threads(args.threads)
x = torch.from_numpy(inputs(args))
t0 = time.perf_counter_ns()
state = torch.load(args.models / "mlp_state_dict.pt", weights_only=True)
model = MyNN(hidden=state["a.weight"].shape[0])  # any width of the model family
model.load_state_dict(state)
model.eval()
load_ns = time.perf_counter_ns() - t0
for i in warm_up(args):
    model(x[i])


def calls(k: int) -> list[float]:
    """Calls 0 .. k-1, as a user's loop would make them."""
    outputs: list[float] = []
    for sample in x[:k]:
        outputs.extend(model(sample).flatten().tolist())
    return outputs


serve(args, "independent-python-eager", torch.__version__, calls, load_ns)
