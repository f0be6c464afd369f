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
verification. Threads go through the inference-threads property. CPU pinning
stays on (OpenVINO's default; off, a call took 1.45x as long here): it holds
the calling thread to the CPUs it had at compile time, which is why drivers
load on the core they are timed on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.properties as props
import openvino.properties.hint as hints
from openvino.frontend import FrontEndManager

from callbench.driver_options import Options
from callbench.driverkit.model import Prepared
from callbench.drivers.checks import Signature, check_output, signature
from callbench.errors import ArtifactError
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
        model = frontend.convert(frontend.load(str(path)))
    except Exception as exc:  # the frontend raises its own GeneralFailure types
        raise ArtifactError(path, f"does not load as ONNX ({_problem(exc)})") from None
    if len(model.inputs) != 1 or len(model.outputs) != 1:
        raise ArtifactError(
            path,
            f"has {len(model.inputs)} inputs and {len(model.outputs)} outputs, expected 1 and 1",
        )
    return model


def _dims(port: Any) -> list[object]:
    return [d.get_length() if d.is_static else "?" for d in port.get_partial_shape()]


def compile_model(
    options: Options, inputs: np.ndarray, outputs: np.ndarray, *, static: bool = False
) -> tuple[ov.CompiledModel, Signature, dict[str, Any]]:
    """The model compiled for the CPU, f32, ``options.threads`` threads; its names and
    per-sample sizes (checked against the arrays); and notes read back.

    ``static`` reshapes its input to ``[batch, F]`` first (the ONNX file's batch is dynamic).
    """
    path = require(options.models, ONNX)
    model = _read(path)
    io = signature(
        path,
        [(p.get_any_name(), _dims(p)) for p in model.inputs],
        [(p.get_any_name(), _dims(p)) for p in model.outputs],
        inputs.shape[1],
        outputs.shape[1],
    )
    if static:
        try:
            model.reshape([options.batch, io.features])
        except Exception as exc:
            raise ArtifactError(
                path, f"cannot take a [{options.batch}, {io.features}] input ({_problem(exc)})"
            ) from None
    config = {hints.inference_precision: ov.Type.f32, props.inference_num_threads: options.threads}
    try:
        compiled = ov.Core().compile_model(model, "CPU", config)
    except Exception as exc:
        raise ArtifactError(path, f"does not compile for the CPU ({_problem(exc)})") from None
    notes = {
        "inference_precision": compiled.get_property(hints.inference_precision).get_type_name(),
        "inference_num_threads": int(compiled.get_property(props.inference_num_threads)),
        "num_streams": int(compiled.get_property(props.num_streams)),
        "enable_cpu_pinning": bool(compiled.get_property(hints.enable_cpu_pinning)),
        "input_shape": compiled.input(0).get_partial_shape().to_string(),
        "precision_why": "f32 forced; the default on bf16-capable CPUs is bf16",
    }
    return compiled, io, notes


def _first_call(
    options: Options, infer: Callable[[np.ndarray], Any], x: np.ndarray, io: Signature
) -> None:
    """One untimed call, so a model that fails or answers with the wrong shape is named here."""
    path = options.models / ONNX
    try:
        y = infer(x)[0]
    except Exception as exc:
        raise ArtifactError(
            path, f"fails on a {list(x.shape)} float32 input ({_problem(exc)})"
        ) from None
    check_output(path, y, options.batch, io.output_shape)


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    compiled, io, notes = compile_model(options, inputs, outputs)
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    _first_call(options, compiled, x[0], io)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = compiled(x[i])[0]

    return Prepared(loop, ov.get_version(), {"call": "compiled_model(x)[0]", **notes})


def _fixed_tensors(
    options: Options, inputs: np.ndarray, outputs: np.ndarray, *, static: bool
) -> Prepared:
    compiled, io, notes = compile_model(options, inputs, outputs, static=static)
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    request = compiled.create_infer_request()
    # A plain inference first: a fixed output tensor of the expected shape
    # would make a model answering with another shape fail less clearly.
    _first_call(options, request.infer, x[0], io)
    x_buf = np.zeros((options.batch, io.features), dtype=np.float32)
    y_buf = np.zeros((options.batch, *io.output_shape), dtype=np.float32)
    request.set_input_tensor(ov.Tensor(x_buf, shared_memory=True))
    request.set_output_tensor(ov.Tensor(y_buf, shared_memory=True))
    infer = request.infer

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            x_buf[...] = x[i]
            infer()
            y[i] = y_buf

    call = "InferRequest.infer() on input/output Tensors over fixed buffers, set once"
    if static:
        call = f"model reshaped to a static [batch, features]; {call}"
    return Prepared(loop, ov.get_version(), {"call": call, **notes})


def reuse(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return _fixed_tensors(options, inputs, outputs, static=False)


def static(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return _fixed_tensors(options, inputs, outputs, static=True)
