"""ONNX Runtime the way its tutorial calls it: ``session.run`` in a loop."""

import time

import numpy as np
import onnxruntime as ort

from callbench.independent.cli import parse, serve, tensor_inputs, warm_up

args = parse()
t0 = time.perf_counter_ns()
options = ort.SessionOptions()
options.intra_op_num_threads = args.threads
session = ort.InferenceSession(str(args.models / "mlp.onnx"), options)
load_ns = time.perf_counter_ns() - t0
# Every input by the name the model declares, its samples from the contract's files.
names = [i.name for i in session.get_inputs()]
xs = tensor_inputs(args)
for i in warm_up(args):
    session.run(None, {n: x[i] for n, x in zip(names, xs, strict=True)})


def calls(k: int) -> list[float]:
    """Calls 0 .. k-1, as a user's loop would make them (one float32 input and output)."""
    name, x = names[0], xs[0]
    outputs: list[float] = []
    for sample in x[:k]:
        outputs.extend(session.run(None, {name: sample})[0].ravel())
    return outputs


def calls_every(k: int) -> tuple[np.ndarray, ...]:
    """Calls 0 .. k-1 of a model of several inputs or outputs: each output's samples."""
    answers = [session.run(None, {n: x[i] for n, x in zip(names, xs, strict=True)})
               for i in range(k)]  # fmt: skip
    return tuple(np.concatenate(column) for column in zip(*answers, strict=True))


# One float32 input and output (our MLP's case): the tutorial's loop, its outputs as floats.
ports = [*session.get_inputs(), *session.get_outputs()]
one = len(ports) == 2 and all(p.type == "tensor(float)" for p in ports)
serve(args, "independent-python-onnxruntime", ort.__version__, calls if one else calls_every,
      load_ns)  # fmt: skip
