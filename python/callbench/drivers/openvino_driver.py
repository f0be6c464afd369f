"""python-openvino: OpenVINO's CPU plugin on mlp.onnx, one inference per call.

The plain variant calls the compiled model, ``compiled_model(x)[0]``, the
call every OpenVINO tutorial shows. ``-reuse`` is the documented faster way:
one InferRequest whose input and output Tensors share fixed NumPy buffers,
set once; each call copies its samples in, runs ``infer()`` and copies the
result out. ``-static`` does the same on the model reshaped to a static
``[batch, 2]`` input before compiling (OpenVINO's guide: static shapes skip
the per-inference shape work that a dynamic batch costs).

All compile for the CPU with f32 inference precision: on CPUs with bf16
support OpenVINO's default is bf16, which moves outputs ~2e-4 and fails
verification. Threads go through the inference-threads property.

CPU pinning (``ENABLE_CPU_PINNING``, on by default on Linux) is set for the callers
(``pins``): on only where the process has one CPU to run on and one caller (there a call
took 1.45x as long unpinned), off elsewhere. Pinned, OpenVINO holds each thread that runs
an inference (a caller's own, with one stream) to its stream's CPU: N callers, or N copies
over the same cores, were held to one core (C++ at 2 callers: 0.42x one caller, one core
idle). ``static_pinned`` keeps the default, run at N > 1 callers only to show what it costs.
Where pinning stays on, it holds the calling thread to the CPUs it had at compile time,
which is why drivers load on the cores they are timed on.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.properties as props
import openvino.properties.hint as hints
from openvino.frontend import FrontEndManager

from callbench.driver_options import Options
from callbench.driverkit.model import (
    PER_CALLER,
    SHARED,
    Arrays,
    Loop,
    Model,
    Sharing,
    every_tensor,
    takes_callers,
)
from callbench.drivers.checks import Ports, check_output, per_call, ports
from callbench.errors import DataError
from callbench.model.artifacts import ONNX, require


def _problem(exc: BaseException) -> str:
    """OpenVINO's messages start with source locations; the last line says what went wrong."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def _read(path: Path) -> ov.Model:
    # The ONNX frontend directly: Core.read_model would also try every other
    # frontend on a file ONNX rejects, and TensorFlow's logs to stderr.
    frontend = FrontEndManager().load_by_framework("onnx")
    try:
        return frontend.convert(frontend.load(str(path)))
    except Exception as exc:  # the frontend raises its own GeneralFailure types
        raise DataError(path, f"does not load as ONNX ({_problem(exc)})") from None


def _dims(port: Any) -> list[object]:
    return [d.get_length() if d.is_static else "?" for d in port.get_partial_shape()]


def _dtype(port: Any) -> str:
    """The port's element type as NumPy names it (OpenVINO's f32 is float32, boolean bool)."""
    return str(np.dtype(port.get_element_type().to_dtype()))


PINNING_LEFT = "left at OpenVINO's default"
PINNING_FOR_CALLERS = ("on only with one caller on one CPU: pinned, N callers (or N copies over "
                       "the same cores) were held to one core")  # fmt: skip


def pins(options: Options) -> bool:
    """Whether CPU pinning set for the callers is on: one caller on one CPU (read now)."""
    return options.callers == 1 and len(os.sched_getaffinity(0)) == 1


def compile_model(
    options: Options,
    inputs: Arrays,
    outputs: Arrays,
    *,
    static: bool = False,
    default_pinning: bool = False,
) -> tuple[ov.CompiledModel, Ports, dict[str, Any]]:
    """The model compiled for the CPU, f32, ``options.threads`` threads, CPU pinning set
    for the callers (``pins``; left at OpenVINO's default with ``default_pinning``); its
    names and per-sample shapes (checked against the arrays); and notes read back.

    ``static`` reshapes every input to ``[batch, *shape]`` first (the ONNX file's batch is
    dynamic).
    """
    path = require(options.models, ONNX)
    model = _read(path)
    io = ports(
        path,
        [(p.get_any_name(), _dims(p), _dtype(p)) for p in model.inputs],
        [(p.get_any_name(), _dims(p), _dtype(p)) for p in model.outputs],
        inputs,
        outputs,
    )
    if static:
        shapes = {n: [options.batch, *x.shape[1:]] for n, x in zip(io.inputs, inputs, strict=True)}
        try:
            model.reshape(shapes)
        except Exception as exc:
            raise DataError(path, f"cannot take inputs {shapes} ({_problem(exc)})") from None
    config: dict[Any, Any] = {hints.inference_precision: ov.Type.f32,
                              props.inference_num_threads: options.threads}  # fmt: skip
    if not default_pinning:
        config[hints.enable_cpu_pinning] = pins(options)
    try:
        compiled = ov.Core().compile_model(model, "CPU", config)
    except Exception as exc:
        raise DataError(path, f"does not compile for the CPU ({_problem(exc)})") from None
    notes = {
        "inference_precision": compiled.get_property(hints.inference_precision).get_type_name(),
        "inference_num_threads": int(compiled.get_property(props.inference_num_threads)),
        "num_streams": int(compiled.get_property(props.num_streams)),
        "enable_cpu_pinning": bool(compiled.get_property(hints.enable_cpu_pinning)),
        "cpu_pinning_set": PINNING_LEFT if default_pinning else PINNING_FOR_CALLERS,
        "input_shape": compiled.input(0).get_partial_shape().to_string(),
        "precision_why": "f32 forced; the default on bf16-capable CPUs is bf16",
    }
    if any(_dtype(p) == "float16" for p in (*model.inputs, *model.outputs)):
        notes["float16"] = "a float16 model is computed in f32 (inference precision f32)"
    return compiled, io, notes


def _first_call(
    options: Options, infer: Callable[[list[np.ndarray]], Any], xs: list[np.ndarray], io: Ports
) -> None:
    """One untimed call, so a model that fails or answers with the wrong shape is named here."""
    path = options.models / ONNX
    try:
        answers = infer([x[0] for x in xs])
    except Exception as exc:
        shapes = ", ".join(f"{list(x[0].shape)} {x.dtype}" for x in xs)
        raise DataError(path, f"fails on inputs {shapes} ({_problem(exc)})") from None
    for k, shape in enumerate(io.output_shapes):
        check_output(path, answers[k], options.batch, shape)


@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    compiled, io, notes = compile_model(options, inputs, outputs)
    xs, ys = per_call(inputs, options.batch), per_call(outputs, options.batch)
    _first_call(options, compiled, xs, io)
    notes = {"call": "compiled_model(x)[0]", **notes}
    if io.single:
        (x,), (y,) = xs, ys

        def loop(start: int, stop: int) -> None:
            for i in range(start, stop):
                y[i] = compiled(x[i])[0]

        return Model(loop, ov.get_version(), notes)
    count = len(ys)

    def loop_every(start: int, stop: int) -> None:
        for i in range(start, stop):
            answers = compiled([x[i] for x in xs])
            for k in range(count):
                ys[k][i] = answers[k]

    return Model(loop_every, ov.get_version(), {**notes, "call": "compiled_model([x, ...])"})


# Contract 4: OpenVINO documents a CompiledModel as shared by its InferRequests, one per
# concurrent inference, so each caller makes its own request on the one compiled model.
SHARED_COMPILED = "one CompiledModel, an InferRequest of its own in each caller, CPU pinning off"
SHARED_PINNED = ("one CompiledModel, an InferRequest of its own in each caller, OpenVINO's CPU "
                 "pinning left at its default")  # fmt: skip


def _request_caller(
    options: Options, compiled: ov.CompiledModel, io: Ports
) -> Callable[[Arrays, Arrays], Loop]:
    """A caller's loop: an InferRequest of its own whose input and output Tensors share its
    own fixed buffers, set once, after a plain inference has checked the answer."""

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        xs, ys = per_call(inputs, options.batch), per_call(outputs, options.batch)
        request = compiled.create_infer_request()
        # A plain inference first: a fixed output tensor of the expected shape
        # would make a model answering with another shape fail less clearly.
        _first_call(options, request.infer, xs, io)
        x_bufs = [np.zeros_like(x[0]) for x in xs]
        y_bufs = [np.zeros_like(y[0]) for y in ys]
        for k, buf in enumerate(x_bufs):
            request.set_input_tensor(k, ov.Tensor(buf, shared_memory=True))
        for k, buf in enumerate(y_bufs):
            request.set_output_tensor(k, ov.Tensor(buf, shared_memory=True))
        infer = request.infer
        if io.single:
            (x,), (y,), (x_buf,), (y_buf,) = xs, ys, x_bufs, y_bufs

            def loop(start: int, stop: int) -> None:
                for i in range(start, stop):
                    x_buf[...] = x[i]
                    infer()
                    y[i] = y_buf

            return loop
        fills, drains = list(zip(x_bufs, xs, strict=True)), list(zip(ys, y_bufs, strict=True))

        def loop_every(start: int, stop: int) -> None:
            for i in range(start, stop):
                for buf, x in fills:
                    buf[...] = x[i]
                infer()
                for y, buf in drains:
                    y[i] = buf

        return loop_every

    return caller


def _fixed_tensors(options: Options, inputs: Arrays, outputs: Arrays, *, static: bool,
                   default_pinning: bool = False) -> Model:  # fmt: skip
    compiled, io, notes = compile_model(options, inputs, outputs, static=static,
                                        default_pinning=default_pinning)  # fmt: skip
    caller = _request_caller(options, compiled, io)
    call = "InferRequest.infer() on input/output Tensors over fixed buffers, set once"
    if static:
        call = f"model reshaped to static [batch, ...] inputs; {call}"
    held = SHARED_PINNED if default_pinning else SHARED_COMPILED
    return Model(caller(inputs, outputs), ov.get_version(), {"call": call, **notes},
                 sharing=Sharing(SHARED, held, caller))  # fmt: skip


@takes_callers
@every_tensor
def reuse(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return _fixed_tensors(options, inputs, outputs, static=False)


@takes_callers
@every_tensor
def static(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    return _fixed_tensors(options, inputs, outputs, static=True)


@takes_callers
@every_tensor
def static_pinned(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    """``static`` with OpenVINO's CPU pinning at its default (a twin at N > 1 callers)."""
    return _fixed_tensors(options, inputs, outputs, static=True, default_pinning=True)


# A twin's holding (contract 4, per caller): OpenVINO runs one compiled model's infer requests in
# parallel only as far as its streams go (one, at one inference thread), so N callers of the
# shared model take turns; a model each runs them side by side.
OWN_COMPILED = "a CompiledModel of its own in each caller (an InferRequest on it), CPU pinning off"


@takes_callers
@every_tensor
def static_models(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    """``static`` with a CompiledModel of its own in each caller (a twin at N > 1 callers)."""
    model = _fixed_tensors(options, inputs, outputs, static=True)

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        compiled, io, _ = compile_model(options, inputs, outputs, static=True)
        return _request_caller(options, compiled, io)(inputs, outputs)

    notes = {**model.notes, "call": f"{model.notes['call']}; a CompiledModel per caller"}
    return replace(model, notes=notes, sharing=Sharing(PER_CALLER, OWN_COMPILED, caller))
