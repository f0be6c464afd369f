"""python-onnxruntime: an ONNX Runtime InferenceSession on mlp.onnx, one run per call.

Names and per-sample sizes come from the session's view of the graph, so a
model the user brings (``--onnx``) runs as ours does.

The plain variant calls ``session.run`` with a NumPy view of the call's
inputs. ``-iobinding`` is the documented way to avoid per-call allocation:
input and output OrtValues are bound once and refilled in place.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from callbench.driver_options import Options
from callbench.driverkit.model import Prepared, model_error
from callbench.drivers.checks import Signature, check_output, signature
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


def names_and_shapes(
    options: Options, sess: ort.InferenceSession, inputs: np.ndarray, outputs: np.ndarray
) -> Signature:
    """The model's input and output names and per-sample sizes, as the session sees them."""
    return signature(
        options.models / ONNX,
        [(i.name, i.shape) for i in sess.get_inputs()],
        [(o.name, o.shape) for o in sess.get_outputs()],
        inputs.shape[1],
        outputs.shape[1],
    )


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    sess = session(options)
    io = names_and_shapes(options, sess, inputs, outputs)
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    run, x_name = sess.run, io.input_name
    first = run(None, {x_name: x[0]})[0]
    check_output(options.models / ONNX, first, options.batch, io.output_shape)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = run(None, {x_name: x[i]})[0]

    return Prepared(loop, ort.__version__, {"call": "InferenceSession.run with a NumPy view"})


def iobinding(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    sess = session(options)
    io = names_and_shapes(options, sess, inputs, outputs)
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    x_buf = np.zeros((options.batch, io.features), dtype=np.float32)
    y_buf = np.zeros((options.batch, *io.output_shape), dtype=np.float32)
    binding = sess.io_binding()
    binding.bind_ortvalue_input(io.input_name, ort.OrtValue.ortvalue_from_numpy(x_buf))
    binding.bind_ortvalue_output(io.output_name, ort.OrtValue.ortvalue_from_numpy(y_buf))
    # No RunOptions: with one, this ORT version looks up a config entry that is
    # absent by raising and catching an exception, ~50 µs a call.
    run = sess.run_with_iobinding
    x_buf[...] = x[0]
    try:
        run(binding)
    except Exception as exc:  # ORT refuses an output that does not fit the bound buffer
        raise model_error(options.models / ONNX, exc) from None
    check_output(options.models / ONNX, y_buf, options.batch, io.output_shape)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            x_buf[...] = x[i]
            run(binding)
            y[i] = y_buf

    return Prepared(loop, ort.__version__, {"call": "run_with_iobinding, OrtValues bound once"})
