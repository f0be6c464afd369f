"""ONNX Runtime the way its tutorial calls it: ``session.run`` in a loop."""

import time

import onnxruntime as ort

from callbench.independent.cli import inputs, parse, serve

args = parse()
t0 = time.perf_counter_ns()
options = ort.SessionOptions()
options.intra_op_num_threads = args.threads
session = ort.InferenceSession(str(args.models / "mlp.onnx"), options)
load_ns = time.perf_counter_ns() - t0
# The input's name and width as the model declares them (a user's model has its own).
name, shape = session.get_inputs()[0].name, session.get_inputs()[0].shape
x = inputs(args, shape[1])
for i in range(args.warmup):
    session.run(None, {name: x[i % args.calls]})


def calls(k: int) -> list[float]:
    """Calls 0 .. k-1, as a user's loop would make them."""
    outputs: list[float] = []
    for sample in x[:k]:
        outputs.extend(session.run(None, {name: sample})[0].ravel())
    return outputs


serve(args, "independent-python-onnxruntime", ort.__version__, calls, load_ns)
