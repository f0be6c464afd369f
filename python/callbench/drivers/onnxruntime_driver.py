"""python-onnxruntime: an ONNX Runtime InferenceSession on mlp.onnx, one run per call.

The plain variant calls ``session.run`` with a NumPy view of the call's
inputs. ``-iobinding`` is the documented way to avoid per-call allocation:
input and output OrtValues are bound once and refilled in place.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from callbench.driverkit.model import Prepared, model_error
from callbench.driverkit.options import Options
from callbench.drivers.checks import check_output
from callbench.model.artifacts import ONNX


def session(options: Options) -> ort.InferenceSession:
    from callbench.model.artifacts import require

    path = require(options.models, ONNX)
    so = ort.SessionOptions()
    so.intra_op_num_threads = options.threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3  # warnings about unused initialisers are noise here
    try:
        return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf types
        raise model_error(path, exc) from None


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    sess = session(options)
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    run = sess.run
    check_output(options.models / ONNX, run(None, {"x": x[0]})[0], options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = run(None, {"x": x[i]})[0]

    return Prepared(loop, ort.__version__, {"call": "InferenceSession.run with a NumPy view"})


def iobinding(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    sess = session(options)
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    x_buf = np.zeros((options.batch, 2), dtype=np.float32)
    y_buf = np.zeros((options.batch, 1), dtype=np.float32)
    binding = sess.io_binding()
    binding.bind_ortvalue_input("x", ort.OrtValue.ortvalue_from_numpy(x_buf))
    binding.bind_ortvalue_output("y", ort.OrtValue.ortvalue_from_numpy(y_buf))
    # No RunOptions: with one, this ORT version looks up a config entry that is
    # absent by raising and catching an exception, ~50 µs a call.
    run = sess.run_with_iobinding
    x_buf[...] = x[0]
    try:
        run(binding)
    except Exception as exc:  # ORT refuses an output that does not fit the bound [B, 1]
        raise model_error(options.models / ONNX, exc) from None
    check_output(options.models / ONNX, y_buf, options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            x_buf[...] = x[i]
            run(binding)
            y[i] = y_buf

    return Prepared(loop, ort.__version__, {"call": "run_with_iobinding, OrtValues bound once"})
