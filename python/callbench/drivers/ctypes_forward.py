"""python-ctypes: the C forward (``drivers/native/mlp_forward.c``) called through ctypes.

``libcallbench_mlp.so`` (built by ``callbench build python``) is loaded with
``ctypes.CDLL``; the function's ``argtypes`` are declared once, and each call
passes the addresses of its input and output samples as plain integers, the
cheapest argument ctypes converts.
"""

from __future__ import annotations

import ctypes
import platform

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import native_modules as native
from callbench.errors import DataError

FLOAT_BYTES = 4


class Mlp(ctypes.Structure):
    """callbench_mlp of mlp_forward.h: the weights' address and their hidden width."""

    _fields_ = [("weights", ctypes.c_void_p), ("hidden", ctypes.c_int64)]


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    weights, hidden = native.loop_weights(options)
    path = native.require_built(native.library_path())
    try:
        forward = ctypes.CDLL(str(path)).callbench_mlp_forward
    except (OSError, AttributeError) as exc:
        raise DataError(path, f"cannot be loaded ({exc}); {native.BUILD_HINT}") from None
    pointer = ctypes.c_void_p
    forward.argtypes = [pointer, pointer, pointer, ctypes.c_int64]
    forward.restype = None
    batch = options.batch
    # The model (weights and width) is one struct made at load: a call passes its address.
    model = Mlp(weights.ctypes.data, hidden)
    # Addresses only: the kit holds inputs and outputs, the loop's default argument the model.
    mlp = ctypes.addressof(model)
    x, x_step = inputs.ctypes.data, 2 * batch * FLOAT_BYTES
    y, y_step = outputs.ctypes.data, batch * FLOAT_BYTES

    def loop(start: int, stop: int, _alive: tuple[object, ...] = (weights, model)) -> None:
        for i in range(start, stop):
            forward(mlp, x + i * x_step, y + i * y_step, batch)

    notes = {
        "call": "CDLL function with argtypes, addresses passed as ints",
        "threads": "the C forward runs on the calling thread; --threads changes nothing",
    }
    return Model(loop, f"ctypes (Python {platform.python_version()})", notes)
