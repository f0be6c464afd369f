"""ONNX Runtime from N threads the way a user shares it: one session, a thread pool, each
thread calling ``session.run`` in its own loop (run is documented safe to call at once).

Written apart from the driver kit (it shares nothing with ``driverkit/callers.py``), so
the kit's callers can be held against it. Thread c's call i takes the samples of call
(c*K + i) mod S and the outputs are written thread after thread, as contract 4 asks, so
the harness checks every thread's; our MLP only (one float32 input and output).
"""

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnxruntime as ort

from callbench.independent.cli import parse, say, tensor_inputs, warm_up

args: argparse.Namespace = parse(callers=True)
t0 = time.perf_counter_ns()
options = ort.SessionOptions()
options.intra_op_num_threads = args.threads
session = ort.InferenceSession(str(args.models / "mlp.onnx"), options)
load_ns = time.perf_counter_ns() - t0
name = session.get_inputs()[0].name
every = tensor_inputs(args, every=True)[0]  # [S, batch, 2]: every call the inputs hold
for i in warm_up(args):
    session.run(None, {name: every[i]})


def thread_calls(c: int, k: int) -> tuple[int, int, int, list[float]]:
    """Thread c's k calls: its start and end, its CPU time, its outputs."""
    outputs: list[float] = []
    cpu0, start = time.thread_time_ns(), time.perf_counter_ns()
    for i in range(k):
        outputs.extend(session.run(None, {name: every[(c * k + i) % len(every)]})[0].ravel())
    end = time.perf_counter_ns()
    return start, end, time.thread_time_ns() - cpu0, outputs


pool = ThreadPoolExecutor(args.callers)
# Each thread warms up once, so no round pays for starting one.
list(pool.map(lambda c: thread_calls(c, 1), range(args.callers)))
if args.serve:
    say({"event": "ready", "load_ns": load_ns})
rounds: list[dict[str, object]] = []
outputs: list[float] = []
for line in sys.stdin if args.serve else [f"round {args.calls}"] * args.repeats:
    verb, _, count = line.strip().partition(" ")
    if verb == "end":
        break
    if verb not in ("round", "latencies") or not count.isdigit():
        sys.exit(f"independent-python-onnxruntime-threads: usage: unknown command {line!r}")
    if verb == "latencies":
        say({"event": "latencies", "calls": int(count)})
        continue
    k = int(count)
    done = list(pool.map(lambda c: thread_calls(c, k), range(args.callers)))  # noqa: B023
    first, last = min(d[0] for d in done), max(d[1] for d in done)
    rounds.append(
        {
            "calls": k,
            "ns": last - first,
            "cpu_ns": sum(d[2] for d in done),
            "callers": args.callers,
            "caller_ns": [d[1] - d[0] for d in done],
        }
    )
    outputs = [y for d in done for y in d[3]]
    if args.serve:
        say({"event": "round", **rounds[-1]})
pool.shutdown()
if args.outputs is not None:
    args.outputs.write_bytes(np.asarray(outputs, dtype="<f4").tobytes())
echo = {"callers": args.callers} if args.callers > 1 else {}
say(
    {
        "driver": "independent-python-onnxruntime-threads",
        "calls": args.calls,
        "batch": args.batch,
        "threads": args.threads,
        **echo,
        "runtime_version": ort.__version__,
        "load_ns": load_ns,
        "peak_rss_bytes": None,
        "rounds": rounds,
        "notes": {"caller": "independent plain loop, one session from a thread pool"},
    }
)
