"""A driver of the Python kit whose call takes 50 ms (a real model's order): the warm-up
must end by its time budget, not by 10,000 calls. It answers with the reference outputs."""

from __future__ import annotations

import sys
import time

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.driver_main import driver_main
from callbench.driverkit.model import Model

CALL_S = 0.05


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    reference = np.fromfile(options.models / "reference.f32", dtype="<f4")
    b, flat = options.batch, outputs.reshape(-1)  # a view: what it stores, outputs holds

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            time.sleep(CALL_S)
            flat[i * b : (i + 1) * b] = reference[i * b : (i + 1) * b]

    return Model(loop, "0")


if __name__ == "__main__":
    sys.exit(driver_main(sys.argv[1] if len(sys.argv) > 1 else "python-slow", setup, sys.argv[2:]))
