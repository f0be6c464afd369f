"""python-executorch: the ExecuTorch program ``mlp.pte`` (XNNPACK) through ``executorch.runtime``.

The documented Python API: ``Runtime.get()`` -> ``load_program(path)`` ->
``load_method("forward")``, then ``Method.execute([x])`` per call, which
returns the outputs as a list of new tensors. In a ``--torch`` run the program is
the user's, called with every input.

Threads: ExecuTorch's shared thread pool (XNNPACK's) starts with one thread
per core. ``portable_lib._unsafe_reset_threadpool`` (marked experimental, and
undocumented) sets it to ``--threads`` before the program is loaded (XNNPACK
binds the pool then); the count is read back into the notes.

XNNPACK's workspace stays ExecuTorch's default, one workspace shared by every loaded
method, which serialises N callers' methods (cpp-executorch-method turns the sharing off
through the backend option ``workspace_sharing_mode``): the Python API has no backend
options (``executorch.runtime`` and ``portable_lib`` expose none), so the notes say so.

The runtime writes its log lines (a CPU probe on start, the reason a program
does not load) straight to file descriptor 2. Setup captures them, so stderr
keeps the contract's one error line, and the last one goes into that line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

# Before executorch is imported: its torchao import logs a deprecation meant for torchao.
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

from executorch.extension.pybindings import portable_lib  # noqa: E402
from executorch.runtime import Runtime  # noqa: E402
from executorch.version import __version__ as executorch_version  # noqa: E402

from callbench.driver_options import Options  # noqa: E402
from callbench.driverkit.model import (  # noqa: E402
    PER_CALLER,
    Arrays,
    Loop,
    Model,
    Sharing,
    every_tensor,
    model_error,
    takes_callers,
)
from callbench.drivers.checks import check_output  # noqa: E402
from callbench.drivers.torch_common import (  # noqa: E402
    is_program_run,
    per_call_inputs,
    storer,
    tensors_loop,
)
from callbench.errors import DataError, UsageError  # noqa: E402
from callbench.model.artifacts import require  # noqa: E402
from callbench.model.exported_programs import EXECUTORCH_XNNPACK  # noqa: E402


class RuntimeLog:
    """What the runtime has printed on fd 2 since capture began."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink

    def last(self) -> str:
        """The last non-empty line so far: the runtime's reason for a load failure."""
        self.sink.seek(0)
        lines = [ln.strip() for ln in self.sink.read().decode(errors="replace").splitlines()]
        return next((ln for ln in reversed(lines) if ln), "")


@contextlib.contextmanager
def captured_fd2() -> Iterator[RuntimeLog]:
    """Point fd 2 at a temporary file for the block (the runtime writes there directly)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield RuntimeLog(sink)
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def load_error(path: Path, exc: BaseException, log: RuntimeLog) -> DataError:
    text = str(exc).strip().splitlines()
    problem = text[0] if text else type(exc).__name__
    if log.last():
        problem += f" ({log.last()})"
    return DataError(path, f"cannot be loaded ({problem})")


@takes_callers
@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    path = require(options.models, EXECUTORCH_XNNPACK)
    with captured_fd2() as log:
        portable_lib._unsafe_reset_threadpool(options.threads)
        pool_threads = portable_lib._threadpool_get_thread_count()
        try:
            method = Runtime.get().load_program(path).load_method("forward")
        except Exception as exc:  # the bindings raise RuntimeError with an error code
            raise load_error(path, exc, log) from None
        if method is None:
            raise DataError(path, "has no forward method")
        max_batch = method.metadata.input_tensor_meta(0).sizes()[0]
        if options.batch > max_batch:
            raise UsageError(f"--batch {options.batch} is above the {max_batch} {path} takes")
        try:
            loop = _loop(method.execute, path, options, inputs, outputs)
        except DataError:
            raise
        except Exception as exc:  # a program of another model rejects the input
            raise load_error(path, exc, log) from None

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        """A caller's own Method, loaded from its own program; outside setup's capture of
        fd 2, which is the process's and so no caller thread's to take."""
        try:
            own = Runtime.get().load_program(path).load_method("forward")
            return _loop(own.execute, path, options, inputs, outputs)
        except DataError:
            raise
        except Exception as exc:
            raise model_error(path, exc) from None

    notes = {
        "call": "Method.execute([x]) from Runtime.get().load_program(path).load_method('forward')",
        "threadpool_threads": int(pool_threads),
        "undocumented": "portable_lib._unsafe_reset_threadpool (sets the thread pool size)",
        "xnnpack_workspace_sharing": XNNPACK_WORKSPACE,
    }
    return Model(loop, executorch_version, notes, context=torch.inference_mode,
                 sharing=Sharing(PER_CALLER, PER_CALLER_METHOD, caller))  # fmt: skip


XNNPACK_WORKSPACE = ("left at ExecuTorch's default (one workspace shared by every method, "
                     "which serialises the callers' methods): the Python API exposes no "
                     "backend options to turn the sharing off")  # fmt: skip

# Contract 4: ExecuTorch documents a Module's forward as not thread-safe, so each caller
# loads its own Program and Method (XNNPACK's thread pool stays the one shared).
PER_CALLER_METHOD = ("a Program and Method of its own in each caller (one shared thread pool), "
                     "XNNPACK's workspace shared by all (ExecuTorch's default)")  # fmt: skip


def _loop(execute: Any, path: Path, options: Options, inputs: Arrays, outputs: Arrays) -> Loop:
    if is_program_run(options):
        return tensors_loop(execute, path, options, inputs, outputs)
    return _our_loop(execute, path, options, inputs, outputs)


def _our_loop(execute: Any, path: Path, options: Options, inputs: Arrays,
              outputs: Arrays) -> Loop:  # fmt: skip
    """Our MLP's one input and one output per sample, stored without a copy per call."""
    x = per_call_inputs(inputs[0], options.batch)
    store = storer(outputs[0], options.batch)
    first: Any = execute([x[0]])
    check_output(path, first[0], options.batch)

    def loop(start: int, stop: int) -> None:
        for i in range(start, stop):
            store(i, execute([x[i]])[0])

    return loop
