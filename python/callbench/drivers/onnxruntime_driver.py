"""python-onnxruntime: an ONNX Runtime InferenceSession on mlp.onnx, one run per call.

Names, dtypes and per-sample shapes come from the session's view of the graph,
so a model the user brings (``--onnx``) runs as ours does: every input and
output (contract 3). With one input and one output, the loop is the one-tensor
call, with no loop over names.

The plain variant calls ``session.run`` with a NumPy view of the call's
inputs. ``-iobinding`` is the documented way to avoid per-call allocation:
input and output OrtValues are bound once and refilled in place. With ``--gathered``
(contract 7), ``-iobinding``'s batcher calls at the size it gathered: an IoBinding over
OrtValues of each size 1..B, bound at load (ONNX Runtime takes a changing batch dimension
without reloading; a model whose batch dimension is fixed refuses it at load).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnxruntime as ort

from callbench.driver_options import Options
from callbench.driverkit.model import (
    PER_CALLER,
    SHARED,
    Arrays,
    Gathered,
    Loop,
    Model,
    Sharing,
    every_tensor,
    model_error,
    takes_callers,
    takes_gathered,
)
from callbench.drivers.checks import Ports, check_output, per_call, ports
from callbench.errors import DataError
from callbench.model.artifacts import ONNX

Caller = Callable[[Arrays, Arrays], Loop]


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


# ONNX Runtime's type strings for the dtypes contract 3 feeds, as NumPy names them.
ORT_TYPES = {"tensor(float)": "float32", "tensor(float16)": "float16", "tensor(double)": "float64",
             "tensor(int64)": "int64", "tensor(int32)": "int32", "tensor(int8)": "int8",
             "tensor(uint8)": "uint8", "tensor(bool)": "bool"}  # fmt: skip


def names_and_shapes(
    options: Options, sess: ort.InferenceSession, inputs: Arrays, outputs: Arrays
) -> Ports:
    """The model's inputs and outputs as the session sees them, checked against the arrays."""
    return ports(
        options.models / ONNX,
        [(i.name, i.shape, ORT_TYPES.get(i.type, i.type)) for i in sess.get_inputs()],
        [(o.name, o.shape, ORT_TYPES.get(o.type, o.type)) for o in sess.get_outputs()],
        inputs,
        outputs,
    )


def check_outputs(options: Options, got: Sequence[Any], io: Ports) -> None:
    for y, shape in zip(got, io.output_shapes, strict=True):
        check_output(options.models / ONNX, y, options.batch, shape)


# Contract 4: ONNX Runtime documents InferenceSession.run as safe to call from many threads
# at once, so every caller calls the one session; the C++ call releases the GIL.
SHARED_SESSION = "one InferenceSession, called from every caller's thread (run is thread-safe)"


@takes_callers
@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    sess = session(options)
    io = names_and_shapes(options, sess, inputs, outputs)
    run, names = sess.run, io.inputs
    first = per_call(inputs, options.batch)
    check_outputs(options, run(None, {n: x[0] for n, x in zip(names, first, strict=True)}), io)

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        """One caller's loop: session.run on NumPy views of its own inputs."""
        xs, ys = per_call(inputs, options.batch), per_call(outputs, options.batch)
        if io.single:
            (x,), (y,), (x_name,) = xs, ys, names

            def loop(start: int, stop: int) -> None:
                for i in range(start, stop):
                    y[i] = run(None, {x_name: x[i]})[0]

            return loop
        feeds = list(zip(names, xs, strict=True))

        def loop_every(start: int, stop: int) -> None:
            for i in range(start, stop):
                answers = run(None, {n: x[i] for n, x in feeds})
                for y, answer in zip(ys, answers, strict=True):
                    y[i] = answer

        return loop_every

    notes = {"call": "InferenceSession.run with NumPy views"}
    return Model(caller(inputs, outputs), ort.__version__, notes,
                 sharing=Sharing(SHARED, SHARED_SESSION, caller))  # fmt: skip


def bound_caller(options: Options, sess: ort.InferenceSession, io: Ports) -> Caller:
    """A caller's loop made over ``sess``: its own IoBinding over its own OrtValues, bound
    once, checked by one run."""
    # No RunOptions: with one, this ORT version looks up a config entry that is
    # absent by raising and catching an exception, ~50 µs a call.
    run = sess.run_with_iobinding

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        xs, ys = per_call(inputs, options.batch), per_call(outputs, options.batch)
        x_bufs = [np.zeros_like(x[0]) for x in xs]
        y_bufs = [np.zeros_like(y[0]) for y in ys]
        binding = sess.io_binding()
        for name, buf in zip(io.inputs, x_bufs, strict=True):
            binding.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy(buf))
        for name, buf in zip(io.outputs, y_bufs, strict=True):
            binding.bind_ortvalue_output(name, ort.OrtValue.ortvalue_from_numpy(buf))
        for buf, x in zip(x_bufs, xs, strict=True):
            buf[...] = x[0]
        try:
            run(binding)
        except Exception as exc:  # ORT refuses an output that does not fit the bound buffer
            raise model_error(options.models / ONNX, exc) from None
        check_outputs(options, y_bufs, io)
        if io.single:
            (x,), (y,), (x_buf,), (y_buf,) = xs, ys, x_bufs, y_bufs

            def loop(start: int, stop: int) -> None:
                for i in range(start, stop):
                    x_buf[...] = x[i]
                    run(binding)
                    y[i] = y_buf

            return loop
        fills, drains = list(zip(x_bufs, xs, strict=True)), list(zip(ys, y_bufs, strict=True))

        def loop_every(start: int, stop: int) -> None:
            for i in range(start, stop):
                for buf, x in fills:
                    buf[...] = x[i]
                run(binding)
                for y, buf in drains:
                    y[i] = buf

        return loop_every

    return caller


def gathered_call(
    options: Options, sess: ort.InferenceSession, io: Ports, inputs: Arrays, outputs: Arrays
) -> Gathered:
    """Contract 7's call at the gathered size n (1..B) over call 0's first n places: an
    IoBinding over OrtValues of n samples for each n, bound here, each checked by one run."""
    for declared in sess.get_inputs():
        if declared.shape and isinstance(declared.shape[0], int):
            fixed = f"input {declared.name!r} has a fixed batch dimension of {declared.shape[0]}"
            raise DataError(options.models / ONNX, f"{fixed}: it takes no gathered call")
    run = sess.run_with_iobinding
    xs, ys = [x[: options.batch] for x in inputs], [y[: options.batch] for y in outputs]
    sized = []
    for n in range(1, options.batch + 1):
        x_bufs, y_bufs = [np.zeros_like(x[:n]) for x in xs], [np.zeros_like(y[:n]) for y in ys]
        binding = sess.io_binding()
        for name, buf in zip(io.inputs, x_bufs, strict=True):
            binding.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy(buf))
        for name, buf in zip(io.outputs, y_bufs, strict=True):
            binding.bind_ortvalue_output(name, ort.OrtValue.ortvalue_from_numpy(buf))
        try:
            run(binding)
        except Exception as exc:  # ORT refuses a batch its graph does not take
            raise model_error(options.models / ONNX, exc) from None
        sized.append((binding, list(zip(x_bufs, xs, strict=True)),
                      list(zip(ys, y_bufs, strict=True))))  # fmt: skip

    def gathered(n: int) -> None:
        binding, fills, drains = sized[n - 1]
        for buf, x in fills:
            buf[...] = x[:n]
        run(binding)
        for y, buf in drains:
            y[:n] = buf

    return gathered


IOBINDING_NOTES = {"call": "run_with_iobinding, OrtValues bound once"}
GATHERED_NOTE = "run_with_iobinding over OrtValues of the n gathered, an IoBinding for each n"


@takes_gathered
@takes_callers
@every_tensor
def iobinding(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    sess = session(options)
    io = names_and_shapes(options, sess, inputs, outputs)
    caller = bound_caller(options, sess, io)
    how = f"{SHARED_SESSION}; an IoBinding and OrtValues of its own in each caller"
    if not options.gathered:
        return Model(caller(inputs, outputs), ort.__version__, IOBINDING_NOTES,
                     sharing=Sharing(SHARED, how, caller))  # fmt: skip
    return Model(caller(inputs, outputs), ort.__version__,
                 {**IOBINDING_NOTES, "gathered_call": GATHERED_NOTE},
                 sharing=Sharing(SHARED, how, caller),
                 gathered=gathered_call(options, sess, io, inputs, outputs))  # fmt: skip


@takes_callers
@every_tensor
def iobinding_sessions(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    """-iobinding with a session of its own in each caller: no contention, N copies."""
    sess = session(options)
    io = names_and_shapes(options, sess, inputs, outputs)

    def own_session(inputs: Arrays, outputs: Arrays) -> Loop:
        mine = session(options)
        return bound_caller(options, mine, names_and_shapes(options, mine, inputs, outputs))(
            inputs, outputs)  # fmt: skip

    how = "an InferenceSession of its own in each caller, each with its IoBinding"
    return Model(bound_caller(options, sess, io)(inputs, outputs), ort.__version__,
                 IOBINDING_NOTES, sharing=Sharing(PER_CALLER, how, own_session))  # fmt: skip
