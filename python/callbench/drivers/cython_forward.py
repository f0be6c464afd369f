"""python-cython and python-cython-loop: the forward pass compiled with Cython.

The extension (``drivers/native/mlp_cython.pyx``, built by ``callbench build
python``) holds the raw weights, the inputs and the outputs as typed
memoryviews. ``per_call`` keeps the loop in Python and calls the compiled
forward once per call, what compiling only the hot spot buys (seed 004);
``whole_loop`` hands the whole ``loop(start, stop)`` to Cython, what moving
the loop out of the interpreter buys.
"""

from __future__ import annotations

from importlib.metadata import version

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers import native_modules as native

THREADS_NOTE = "the forward runs on the calling thread; --threads changes nothing"


def _forward(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> object:
    weights, hidden = native.loop_weights(options)
    extension = native.load_extension(native.CYTHON_MODULE)
    return extension.Forward(weights, hidden, inputs, outputs.reshape(-1), options.batch)


def per_call(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    call = _forward(options, inputs, outputs).call  # type: ignore[attr-defined]

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            call(i)

    notes = {"call": "Forward.call(i), a cpdef method, once per call", "threads": THREADS_NOTE}
    return Model(loop, version("cython"), notes)


def whole_loop(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    run = _forward(options, inputs, outputs).run  # type: ignore[attr-defined]
    notes = {"call": "Forward.run(start, stop): the whole loop in one Cython call",
             "threads": THREADS_NOTE}  # fmt: skip
    return Model(run, version("cython"), notes)
