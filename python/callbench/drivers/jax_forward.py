"""python-jax and python-jax-numpy: a ``jax.jit`` forward, one dispatch per call.

``device`` (python-jax) puts the raw weights and all the inputs on the device
once; each call passes the device arrays and its index, the jitted function
slices its samples, and the result is waited for (``block_until_ready``)
and stored. ``numpy_fed`` (python-jax-numpy) passes each call's NumPy view,
as a user would: JAX copies it to the device on every call.

Threads: XLA's CPU client reads ``XLA_FLAGS`` once, when the backend starts.
With --threads 1 the driver adds ``--xla_cpu_multi_thread_eigen=false`` so
the ops run on the calling thread; XLA has no flag that caps its pool at T > 1
threads, so T > 1 leaves XLA's default (a pool the size of the machine).
``JAX_PLATFORMS=cpu`` keeps JAX from probing for accelerators.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model
from callbench.drivers.checks import check_output
from callbench.drivers.raw_weights import read_raw
from callbench.model.architecture import layers
from callbench.model.artifacts import WEIGHTS

SINGLE_THREAD_FLAG = "--xla_cpu_multi_thread_eigen=false"


def configure(threads: int) -> str:
    """Set JAX's environment before its backend starts; what was set, for the notes."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    if threads == 1:
        flags = os.environ.get("XLA_FLAGS", "")
        if SINGLE_THREAD_FLAG not in flags:
            os.environ["XLA_FLAGS"] = f"{flags} {SINGLE_THREAD_FLAG}".strip()
        return f"XLA_FLAGS={os.environ['XLA_FLAGS']} (ops on the calling thread)"
    return "XLA's default CPU pool (no XLA flag caps it at --threads)"


def mlp_of(hidden: int) -> Callable[[Any, Any], Any]:
    """The forward pass over the raw weights of width ``hidden`` (one flat array, sliced at
    offsets fixed when it is traced), for x of shape [batch, 2]."""
    import jax

    shapes = [shape for _, fan_in, fan_out in layers(hidden)
              for shape in ((fan_out, fan_in), (fan_out,))]  # fmt: skip
    bounds = [int(b) for b in np.cumsum([0, *(int(np.prod(shape)) for shape in shapes)])]

    def mlp(w: Any, x: Any) -> Any:
        a, a_b, b, b_b, c, c_b = (
            w[start:stop].reshape(shape)
            for start, stop, shape in zip(bounds[:-1], bounds[1:], shapes, strict=True)
        )
        h = jax.nn.relu(x @ a.T + a_b)
        h = jax.nn.relu(h @ b.T + b_b)
        return h @ c.T + c_b

    return mlp


def _prepare(options: Options) -> tuple[Any, str]:
    """(jax module, threads note), the backend started with this run's thread setting."""
    note = configure(options.threads)
    import jax

    return jax, note


def _notes(call: str, threads: str) -> dict[str, Any]:
    tasks = Path("/proc/self/task")
    count = sum(1 for _ in tasks.iterdir()) if tasks.is_dir() else "unknown"
    return {"call": call, "threads": threads, "process_threads": count}


def device(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    jax, threads = _prepare(options)
    batch = options.batch
    raw = read_raw(options)
    w = jax.device_put(raw.flat)
    xs = jax.device_put(inputs.reshape(-1, batch, 2))
    mlp = mlp_of(raw.hidden)

    def at(w: Any, xs: Any, i: Any) -> Any:
        return mlp(w, jax.lax.dynamic_index_in_dim(xs, i, keepdims=False))

    forward: Callable[..., Any] = jax.jit(at)
    y = outputs.reshape(-1, batch, 1)
    check_output(options.models / WEIGHTS, forward(w, xs, 0).block_until_ready(), batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = np.asarray(forward(w, xs, i).block_until_ready())

    call = "jit(forward)(weights, inputs, i) on device arrays, block_until_ready, stored"
    return Model(loop, jax.__version__, _notes(call, threads))


def numpy_fed(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    jax, threads = _prepare(options)
    batch = options.batch
    raw = read_raw(options)
    w = jax.device_put(raw.flat)
    forward: Callable[..., Any] = jax.jit(mlp_of(raw.hidden))
    x = inputs.reshape(-1, batch, 2)
    y = outputs.reshape(-1, batch, 1)
    check_output(options.models / WEIGHTS, forward(w, x[0]).block_until_ready(), batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = np.asarray(forward(w, x[i]).block_until_ready())

    call = "jit(forward)(weights, x[i]) with x[i] a NumPy view, block_until_ready, stored"
    return Model(loop, jax.__version__, _notes(call, threads))
