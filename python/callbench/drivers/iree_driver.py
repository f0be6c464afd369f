"""python-iree: IREE's runtime (``iree-base-runtime``) on mlp.vmfb, mlp.onnx compiled
ahead of time for this CPU (``llvm-cpu``), one call of its function per call.

The plain variant is IREE's Python function API, the call its guides show:
``module.main_graph(x).to_host()`` on the module bound to a SystemContext; it
packs the NumPy array into a device buffer, checks it against the function's
signature, invokes, and maps the result back. ``-invoke`` is the runtime's
lower level, from the same Python package: the input's device buffer made
once and mapped into a NumPy array that each call fills, the argument list
built once, ``VmContext.invoke`` called directly and the result's buffer
mapped and copied out.

One thread: the ``local-sync`` device runs the work inline on the calling
thread; with more threads, ``local-task`` with that many workers.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit.model import Model, model_error
from callbench.drivers.checks import check_output
from callbench.errors import DataError, first_line
from callbench.model.artifacts import require
from callbench.model.iree_model import FUNCTION, VMFB

_F32 = np.dtype(np.float32)


def _device(options: Options) -> str:
    if options.threads == 1:
        return "local-sync"
    import iree.runtime as rt

    rt.flags.parse_flags(f"--task_topology_max_group_count={options.threads}")
    return "local-task"


def _loaded(options: Options) -> tuple[Any, Any, Path, str]:
    """The context holding mlp.vmfb, its function, the file's path and the device's name."""
    import iree.runtime as rt

    path = require(options.models, VMFB)
    device = _device(options)
    context = rt.SystemContext(config=rt.Config(device))
    try:
        module = rt.VmModule.mmap(context.instance, str(path))
        context.add_vm_module(module)
    except (RuntimeError, ValueError) as exc:  # IREE's status errors carry the file's problem
        raise model_error(path, exc) from None
    function = module.lookup_function(FUNCTION)
    if function is None:
        raise DataError(path, f"has no function {FUNCTION!r} ({module.function_names})")
    return context, function, path, device


def _first(path: Path, call: Any, x: np.ndarray, batch: int, shape: tuple[int, ...]) -> None:
    """One untimed call, so a model that fails or answers with the wrong shape is named here."""
    try:
        y = call(x)
    except (RuntimeError, ValueError) as exc:
        raise DataError(
            path, f"fails on a {list(x.shape)} float32 input ({first_line(exc)})"
        ) from None
    check_output(path, y, batch, shape)


def _version() -> str:
    return version("iree-base-runtime")


def plain(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    context, _, path, device = _loaded(options)
    main = getattr(context.modules.module, FUNCTION)
    x = inputs.reshape(-1, options.batch, inputs.shape[1])
    y = outputs.reshape(-1, options.batch, outputs.shape[1])
    _first(path, lambda a: main(a).to_host(), x[0], options.batch, (outputs.shape[1],))

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            y[i] = main(x[i]).to_host()

    notes = {"call": f"module.{FUNCTION}(x).to_host()", "device": device}
    return Model(loop, _version(), notes)


def invoke(options: Options, inputs: np.ndarray, outputs: np.ndarray) -> Model:
    import iree.runtime as rt

    context, function, path, device_name = _loaded(options)
    device = context.config.device
    features, width = inputs.shape[1], outputs.shape[1]
    x = inputs.reshape(-1, options.batch, features)
    y = outputs.reshape(-1, options.batch, width)
    buffer = device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL | rt.MemoryType.HOST_VISIBLE,
        allowed_usage=rt.BufferUsage.DEFAULT | rt.BufferUsage.MAPPING,
        device=device,
        buffer=np.zeros((options.batch, features), dtype=np.float32),
        element_type=rt.HalElementType.FLOAT_32,
    )
    x_buf = buffer.map().asarray([options.batch, features], _F32)
    arguments = rt.VmVariantList(1)
    arguments.push_ref(buffer.ref)
    run, view, new_list = context.vm_context.invoke, rt.HalBufferView, rt.VmVariantList
    y_shape = [options.batch, width]

    def call(sample: np.ndarray) -> np.ndarray:
        x_buf[...] = sample
        results = new_list(1)
        run(function, arguments, results)
        result = results.get_as_object(0, view)
        answer: np.ndarray = result.map().asarray(result.shape, _F32)
        return answer

    _first(path, call, x[0], options.batch, (width,))

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            x_buf[...] = x[i]
            results = new_list(1)  # invoke appends the result: a fresh list each call
            run(function, arguments, results)
            y[i] = results.get_as_object(0, view).map().asarray(y_shape, _F32)

    notes = {"call": "VmContext.invoke on an argument list built once; input buffer mapped once",
             "device": device_name}  # fmt: skip
    return Model(loop, _version(), notes)
