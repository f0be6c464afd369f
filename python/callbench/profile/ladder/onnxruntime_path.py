"""The ONNX Runtime path of the overhead ladder: an OrtValue in, a NumPy array out.

The full call is ``y[i] = session.run(["y"], {"x":
OrtValue.ortvalue_from_numpy(x[i])})[0]``: the input made explicit as an
OrtValue (what ``run`` does inside when given a NumPy array), the output
as ``run`` returns it. The model that does nothing is an Identity graph built
in memory, run with the same session options. python-onnxruntime
(``session.run`` on a NumPy view) is timed beside it.

Not ``run_with_ort_values``: in onnxruntime 1.31 its Python wrapper iterates
the returned pybind11 vector, whose end is a C++ exception, ~25 µs a call
(``callbench profile`` shows it), more than the whole plain call.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

from callbench.driver_options import Options
from callbench.drivers.onnxruntime_driver import session
from callbench.profile.ladder.measure import LadderPath, TimedLoop
from callbench.records.ladder import Step

STEPS = (
    Step("loop", "the empty Python loop", "empty", None),
    Step("sample", "taking one sample (x[i], NumPy)", "sample", "empty"),
    Step("input", "building the input (OrtValue.ortvalue_from_numpy)", "input", "empty"),
    Step("call", "running a graph that does nothing (Identity)", "noop", "empty"),
    Step(
        "model",
        "the MLP's operators, mostly their dispatch: its arithmetic is 209 FLOPs "
        "(MLP run less Identity run)",
        "mlp",
        "noop",
    ),
    Step("store", "storing the result (y[i] = out[0])", "store", "empty"),
)


def identity_graph() -> bytes:
    """An ONNX model whose one node copies x [batch, 2] to y."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])],
        "identity",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def identity_session(options: Options) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = options.threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(identity_graph(), so, providers=["CPUExecutionProvider"])


def onnxruntime_path(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> LadderPath:
    mlp_run = session(options).run
    noop_run = identity_session(options).run
    to_ort = ort.OrtValue.ortvalue_from_numpy
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    names = ["y"]
    ov = to_ort(x[0])
    out = mlp_run(names, {"x": ov})

    def empty(n: int) -> None:
        for _ in range(n):
            pass

    def sample(n: int) -> None:
        for i in range(n):
            x[i]

    def build(n: int) -> None:
        s = x[0]
        for _ in range(n):
            to_ort(s)

    def noop(n: int) -> None:
        for _ in range(n):
            noop_run(names, {"x": ov})

    def mlp(n: int) -> None:
        for _ in range(n):
            mlp_run(names, {"x": ov})

    def store_result(n: int) -> None:
        for i in range(n):
            y[i] = out[0]

    def full(n: int) -> None:
        for i in range(n):
            y[i] = mlp_run(names, {"x": to_ort(x[i])})[0]

    loops = (
        TimedLoop("empty", "pass", empty),
        TimedLoop("sample", "x[i]", sample),
        TimedLoop("input", "OrtValue.ortvalue_from_numpy(s)", build),
        TimedLoop("noop", 'identity.run(["y"], {"x": v})', noop),
        TimedLoop("mlp", 'mlp.run(["y"], {"x": v})', mlp),
        TimedLoop("store", "y[i] = out[0]", store_result),
        TimedLoop("full", 'y[i] = mlp.run(["y"], {"x": OrtValue.ortvalue_from_numpy(x[i])})[0]',
                  full),
    )  # fmt: skip
    return LadderPath(
        runtime="onnxruntime",
        runtime_version=ort.__version__,
        call='y[i] = session.run(["y"], {"x": OrtValue.ortvalue_from_numpy(x[i])})[0]',
        loops=loops,
        steps=STEPS,
        full="full",
        driver="python-onnxruntime",
    )
