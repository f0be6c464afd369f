"""ONNX Runtime the way its tutorial calls it: ``session.run`` in a loop."""

import time

import onnxruntime as ort

from callbench.independent.cli import finish, inputs, parse

args = parse()
x = inputs(args)
t0 = time.perf_counter_ns()
options = ort.SessionOptions()
options.intra_op_num_threads = args.threads
session = ort.InferenceSession(str(args.models / "mlp.onnx"), options)
load_ns = time.perf_counter_ns() - t0
for i in range(args.warmup):
    session.run(None, {"x": x[i % args.calls]})
repeat_ns = []
for _ in range(args.repeats):
    outputs: list[float] = []
    t0 = time.perf_counter_ns()
    for sample in x:
        outputs.extend(session.run(None, {"x": sample})[0].ravel())
    repeat_ns.append(time.perf_counter_ns() - t0)
finish(args, "independent-python-onnxruntime", ort.__version__, outputs, repeat_ns, load_ns)
