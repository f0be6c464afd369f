"""python-litert: Google's LiteRT (the TensorFlow Lite runtime, ``ai-edge-litert``) on
mlp.tflite, one inference per call.

The plain variant calls the model's signature, ``runner(x=x)["y"]``, the call
the Interpreter's documentation points users to: each call resizes the input
to the array it is given, re-plans the tensors, copies in, invokes and copies
the output out. ``-reuse`` is the Interpreter's lower-level way: the input
resized to ``[batch, F]`` and the tensors allocated once, then per call
``set_tensor``, ``invoke``, ``get_tensor``. (Its ``tensor()`` views, the
zero-copy route, build a NumPy view per access and measured slower here; the
CompiledModel API of LiteRT 2 reads and writes through TensorBuffers and
measured slower still, and binds host memory only as a flat vector.)

Both take LiteRT's default CPU path: the XNNPACK delegate, applied by the
interpreter itself, with ``num_threads`` threads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model, model_error
from callbench.drivers.checks import Signature, check_output, signature
from callbench.errors import DataError, first_line
from callbench.model.artifacts import require
from callbench.model.litert_model import SIGNATURE, TFLITE


def _interpreter(options: Options) -> tuple[Any, Path]:
    # LiteRT's TensorFlow-era logging (its INFO line about XNNPACK) goes through
    # this variable; warnings and errors still show.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    from ai_edge_litert.interpreter import Interpreter

    path = require(options.models, TFLITE)
    try:
        return Interpreter(model_path=str(path), num_threads=options.threads), path
    except (ValueError, RuntimeError) as exc:  # "not a valid Flatbuffer buffer"
        raise model_error(path, exc) from None


def _signature(path: Path, interpreter: Any, inputs: np.ndarray, outputs: np.ndarray) -> Signature:
    def described(details: list[dict[str, Any]]) -> list[tuple[str, list[object]]]:
        return [
            (d["name"], [int(n) if n >= 0 else "?" for n in d["shape_signature"]]) for d in details
        ]

    return signature(
        path,
        described(interpreter.get_input_details()),
        described(interpreter.get_output_details()),
        inputs.shape[1],
        outputs.shape[1],
    )


def _version() -> str:
    from importlib.metadata import version

    return version("ai-edge-litert")


def _delegated(interpreter: Any) -> bool:
    """Whether the XNNPACK delegate took the graph (it shows as a DELEGATE operator)."""
    return any(op["op_name"] == "DELEGATE" for op in interpreter._get_ops_details())


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    interpreter, path = _interpreter(options)
    io = _signature(path, interpreter, inputs, outputs)
    try:
        runner = interpreter.get_signature_runner(SIGNATURE)
    except ValueError as exc:
        raise DataError(path, f"has no {SIGNATURE!r} signature ({first_line(exc)})") from None
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    x_name, y_name = io.input_name, io.output_name
    try:
        first = runner(**{x_name: x[0]})[y_name]
    except (ValueError, RuntimeError, KeyError) as exc:
        raise model_error(path, exc) from None
    check_output(path, first, options.batch, io.output_shape)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = runner(**{x_name: x[i]})[y_name]

    notes = {"call": f"get_signature_runner({SIGNATURE!r})(x=...)[y]",
             "xnnpack_delegate": _delegated(interpreter)}  # fmt: skip
    return Model(loop, _version(), notes)


def reuse(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    interpreter, path = _interpreter(options)
    io = _signature(path, interpreter, inputs, outputs)
    x_index = interpreter.get_input_details()[0]["index"]
    y_index = interpreter.get_output_details()[0]["index"]
    x = inputs.reshape(-1, options.batch, io.features)
    y = outputs.reshape(-1, options.batch, *io.output_shape)
    try:
        interpreter.resize_tensor_input(x_index, [options.batch, io.features], strict=True)
        interpreter.allocate_tensors()
        interpreter.set_tensor(x_index, x[0])
        interpreter.invoke()
    except (ValueError, RuntimeError) as exc:
        raise model_error(path, exc) from None
    check_output(path, interpreter.get_tensor(y_index), options.batch, io.output_shape)
    set_tensor, get_tensor = interpreter.set_tensor, interpreter.get_tensor
    invoke = interpreter.invoke

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            set_tensor(x_index, x[i])
            invoke()
            y[i] = get_tensor(y_index)

    notes = {"call": "set_tensor, invoke, get_tensor; input resized and tensors allocated once",
             "xnnpack_delegate": _delegated(interpreter)}  # fmt: skip
    return Model(loop, _version(), notes)
