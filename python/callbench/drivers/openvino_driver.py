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

from callbench.driverkit.model import Prepared
from callbench.driverkit.options import Options
from callbench.drivers.checks import check_output
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


def compile_model(
    options: Options, *, static: bool = False
) -> tuple[ov.CompiledModel, dict[str, Any]]:
    """The model compiled for the CPU, f32, ``options.threads`` threads; and notes read back.

    ``static`` reshapes its input to ``[batch, 2]`` first (the ONNX file's batch is dynamic).
    """
    path = require(options.models, ONNX)
    model = _read(path)
    if static:
        try:
            model.reshape([options.batch, 2])
        except Exception as exc:
            raise ArtifactError(
                path, f"cannot take a [{options.batch}, 2] input ({_problem(exc)})"
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
    return compiled, notes


def _first_call(options: Options, infer: Callable[[np.ndarray], Any], x: np.ndarray) -> None:
    """One untimed call, so a model that fails or answers with the wrong shape is named here."""
    path = options.models / ONNX
    try:
        y = infer(x)[0]
    except Exception as exc:
        raise ArtifactError(
            path, f"fails on a {list(x.shape)} float32 input ({_problem(exc)})"
        ) from None
    check_output(path, y, options.batch)


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    compiled, notes = compile_model(options)
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    _first_call(options, compiled, x[0])

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = compiled(x[i])[0]

    return Prepared(loop, ov.get_version(), {"call": "compiled_model(x)[0]", **notes})


def _fixed_tensors(
    options: Options, inputs: np.ndarray, outputs: np.ndarray, *, static: bool
) -> Prepared:
    compiled, notes = compile_model(options, static=static)
    x = inputs.reshape(-1, options.batch, 2)
    y = outputs.reshape(-1, options.batch, 1)
    request = compiled.create_infer_request()
    # A plain inference first: a fixed output tensor of the expected shape
    # would make a model answering with another shape fail less clearly.
    _first_call(options, request.infer, x[0])
    x_buf = np.zeros((options.batch, 2), dtype=np.float32)
    y_buf = np.zeros((options.batch, 1), dtype=np.float32)
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
        call = f"model reshaped to a static [batch, 2]; {call}"
    return Prepared(loop, ov.get_version(), {"call": call, **notes})


def reuse(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return _fixed_tensors(options, inputs, outputs, static=False)


def static(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Prepared:
    return _fixed_tensors(options, inputs, outputs, static=True)
