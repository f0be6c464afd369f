"""python-cupy-kernel: the GPU floor. One hand-written CUDA kernel (mlp_forward.cu,
compiled by CuPy's RawKernel) runs our MLP's whole forward over the weights of
mlp_weights.f32 at any width: one thread per sample for a narrow model, one block per sample
from ``WIDE_FROM`` units (the one-thread kernel's H * H steps a thread took 8.6 ms a call at
width 512 on an H100, run 20261127T022215Z-vm-b373d5). Each call copies its samples to a
device buffer, launches the kernel once and copies the result back into the outputs (the
copy back waits for the GPU). CuPy is optional and imported only here."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from callbench.cuda_probe import load_cupy
from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers.raw_weights import read_raw
from callbench.errors import UsageError

SOURCE = Path(__file__).with_name("mlp_forward.cu")
THREADS = 128  # per block
# From this width a sample's forward is split across a block's threads (mlp_forward_wide).
WIDE_FROM = 32


def setup(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    cp, reason = load_cupy()  # imported only here: CuPy is optional
    if reason is not None:
        raise UsageError(reason)

    weights = read_raw(options)
    w = cp.asarray(weights.flat)
    batch, hidden = options.batch, np.int32(weights.hidden)
    wide = weights.hidden >= WIDE_FROM
    name = "mlp_forward_wide" if wide else "mlp_forward"
    kernel = cp.RawKernel(SOURCE.read_text(), name)
    x = inputs.reshape(-1, batch, 2)
    y = outputs.reshape(-1, batch)
    device_x = cp.empty((batch, 2), dtype=cp.float32)
    device_y = cp.empty(batch, dtype=cp.float32)
    blocks = batch if wide else (batch + THREADS - 1) // THREADS
    shared = 4 * (weights.hidden + THREADS) if wide else 0  # the first layer, the shares
    n = np.int32(batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            device_x.set(x[i])
            kernel((blocks,), (THREADS,), (device_x, w, device_y, n, hidden), shared_mem=shared)
            device_y.get(out=y[i])

    return Model(loop, cp.__version__, {
        "call": "ndarray.set + RawKernel launch + ndarray.get, each call",
        "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "kernel": name,
        "threads_per_block": THREADS,
    })  # fmt: skip
