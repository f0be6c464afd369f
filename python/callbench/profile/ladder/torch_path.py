"""The torch path of the overhead ladder: an nn.Module called on a tensor made from NumPy.

The full call is ``store(i, mlp(torch.from_numpy(x[i])))`` in
``torch.inference_mode()`` (entered once), the store being the drivers' own
(``y.item()``); python-eager-inference is timed beside it.
"""

from __future__ import annotations

import numpy as np
import torch

from callbench.driver_options import Options
from callbench.drivers.torch_common import set_threads, storer
from callbench.model.artifacts import STATE_DICT, load_state_dict, require
from callbench.model.mlp import MLP
from callbench.profile.ladder.measure import LadderPath, TimedLoop
from callbench.records.ladder import Step

STEPS = (
    Step("loop", "the empty Python loop", "empty", None),
    Step("sample", "taking one sample (x[i], NumPy)", "sample", "empty"),
    Step("input", "building the input (torch.from_numpy)", "input", "empty"),
    Step("call", "calling a module that does nothing (nn.Identity)", "noop", "empty"),
    Step(
        "model",
        "the MLP's operators, mostly their dispatch: its arithmetic is 209 FLOPs "
        "(MLP call less nn.Identity call)",
        "mlp",
        "noop",
    ),
    Step("store", "storing the result (y.item())", "store", "empty"),
)


def torch_path(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> LadderPath:
    set_threads(options.threads)
    model = MLP()
    model.load_state_dict(load_state_dict(require(options.models, STATE_DICT)))
    model.eval()
    identity = torch.nn.Identity()
    x = inputs.reshape(-1, options.batch, 2)
    store = storer(outputs, options.batch)
    from_numpy = torch.from_numpy
    with torch.inference_mode():
        t = from_numpy(x[0])
        y = model(t)

    def empty(n: int) -> None:
        for _ in range(n):
            pass

    def sample(n: int) -> None:
        for i in range(n):
            x[i]

    def build(n: int) -> None:
        s = x[0]
        for _ in range(n):
            from_numpy(s)

    def noop(n: int) -> None:
        for _ in range(n):
            identity(t)

    def mlp(n: int) -> None:
        for _ in range(n):
            model(t)

    def store_result(n: int) -> None:
        for i in range(n):
            store(i, y)

    def full(n: int) -> None:
        for i in range(n):
            store(i, model(from_numpy(x[i])))

    loops = (
        TimedLoop("empty", "pass", empty),
        TimedLoop("sample", "x[i]", sample),
        TimedLoop("input", "torch.from_numpy(s)", build),
        TimedLoop("noop", "identity(t)", noop),
        TimedLoop("mlp", "mlp(t)", mlp),
        TimedLoop("store", "store(i, y)", store_result),
        TimedLoop("full", "store(i, mlp(torch.from_numpy(x[i])))", full),
    )
    return LadderPath(
        runtime="torch",
        runtime_version=torch.__version__,
        call="store(i, mlp(torch.from_numpy(x[i]))) in torch.inference_mode()",
        loops=loops,
        steps=STEPS,
        full="full",
        driver="python-eager-inference",
        context=torch.inference_mode,
    )
