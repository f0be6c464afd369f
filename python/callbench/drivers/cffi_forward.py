"""python-cffi: the C forward (``drivers/native/mlp_forward.c``) called through cffi.

cffi's API mode, its documented main way: ``callbench build python`` compiles
an extension module that calls ``callbench_mlp_forward`` in
``libcallbench_mlp.so`` directly. Each call passes pointers into the input
and output buffers (cffi pointer arithmetic on buffers taken once).
"""

from __future__ import annotations

from importlib.metadata import version

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import native_modules as native


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    weights, hidden = native.loop_weights(options)
    extension = native.load_extension(native.CFFI_MODULE)
    ffi, forward = extension.ffi, extension.lib.callbench_mlp_forward
    # Buffers taken once; they keep their arrays alive for as long as the loop. The model
    # (weights and width) is one struct made at load: a call passes one pointer for it.
    w = ffi.from_buffer("float[]", weights)
    mlp = ffi.new("callbench_mlp *", {"weights": w, "hidden": hidden})
    x = ffi.from_buffer("float[]", inputs)
    y = ffi.from_buffer("float[]", outputs)
    batch = options.batch
    x_step, y_step = 2 * batch, batch

    def loop(start: int, stop: int, _alive: object = w) -> None:
        for i in range(start, stop):
            forward(mlp, x + i * x_step, y + i * y_step, batch)

    notes = {
        "call": "API-mode lib.callbench_mlp_forward(mlp, x + i*2B, y + i*B, B), mlp made at load",
        "threads": "the C forward runs on the calling thread; --threads changes nothing",
    }
    return Model(loop, version("cffi"), notes)
