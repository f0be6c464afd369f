"""python-aoti: the AOTInductor package ``mlp.pt2``, loaded with ``aoti_load_package``.

The plain variant is the documented way: ``aoti_load_package(path)`` returns a
callable ``AOTICompiledModel``, called with the input tensor. Every call
flattens its arguments and unflattens the outputs with the package's pytree
specs, which it parses again each time.

``-loader`` is the fastest way the Python API offers: the package loaded with
``run_single_threaded=True`` (documented: no locking around the model for one
caller), then its ``loader`` attribute (undocumented: the
``torch._C._aoti.AOTIModelPackageLoader`` the callable wraps) called as
``loader.run([x])``, which skips the pytree round trip.

In a ``--torch`` run the package is the user's program's, called with every
input. Both run the calls under ``torch.inference_mode()``; the compiled model calls
no autograd, but the input views the drivers make are cheaper there.

``torch._inductor`` is imported with this module, outside the load time, like
every driver's imports (it takes seconds: Inductor's whole compiler comes
with it); the load time is ``aoti_load_package`` itself (unzipping the
package, loading the compiled library).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
import torch._inductor.package  # imported here, not in the load time: see above

from callbench.driver_options import Options
from callbench.driverkit.model import (
    PER_CALLER,
    SHARED,
    Arrays,
    Loop,
    Model,
    Sharing,
    every_tensor,
    model_error,
    takes_callers,
)
from callbench.drivers.checks import check_output
from callbench.drivers.torch_common import (
    is_program_run,
    per_call_inputs,
    set_threads,
    storer,
    tensors_loop,
)
from callbench.model.artifacts import require
from callbench.model.exported_programs import AOTI_PACKAGE


def load_package(options: Options, *, single_threaded: bool, runners: int = 1) -> tuple[Path, Any]:
    path = require(options.models, AOTI_PACKAGE)
    try:
        compiled = torch._inductor.aoti_load_package(
            str(path), run_single_threaded=single_threaded, num_runners=runners
        )
    except Exception as exc:  # torch raises RuntimeError for bad zips, others for bad metadata
        raise model_error(path, exc) from None
    return path, compiled


def first_call(path: Path, run: Any, x: torch.Tensor, batch: int) -> None:
    """The model's answer to the first input, checked before any timing."""
    try:
        y = run(x)
    except Exception as exc:  # a package of another model rejects the input
        raise model_error(path, exc) from None
    check_output(path, y, batch)


# Contract 4: the package's container runs up to num_runners calls at once, each on a
# runner (a model instance with its buffers) of its own, so N callers share one package
# loaded with N runners.
SHARED_PACKAGE = "one AOTICompiledModel loaded with num_runners = callers: a runner for each"


@takes_callers
@every_tensor
def plain(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    set_threads(options.threads)
    path, compiled = load_package(options, single_threaded=False, runners=options.callers)
    notes = {"call": "AOTICompiledModel(x), from aoti_load_package(path)"}
    if is_program_run(options):  # a user's program: every input and output

        def caller(inputs: Arrays, outputs: Arrays) -> Loop:
            return tensors_loop(lambda xs: compiled(*xs), path, options, inputs, outputs)

    else:

        def caller(inputs: Arrays, outputs: Arrays) -> Loop:
            x = per_call_inputs(inputs[0], options.batch)
            store = storer(outputs[0], options.batch)
            first_call(path, compiled, x[0], options.batch)

            def loop_ours(start: int, stop: int) -> None:
                for i in range(start, stop):
                    store(i, compiled(x[i]))

            return loop_ours

    with torch.inference_mode():
        loop = caller(inputs, outputs)
    return Model(loop, torch.__version__, notes, context=torch.inference_mode,
                 sharing=Sharing(SHARED, SHARED_PACKAGE, caller))  # fmt: skip


# Contract 4: run_single_threaded=True takes the package's lock away, so no two callers may
# share one; each caller loads its own, as a thread of a server would.
PER_CALLER_PACKAGE = "an AOTICompiledModel of its own in each caller (run_single_threaded=True)"


@takes_callers
@every_tensor
def loader(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    set_threads(options.threads)
    path, compiled = load_package(options, single_threaded=True)
    notes = {
        "call": "AOTICompiledModel.loader.run([x]), run_single_threaded=True",
        "undocumented": "AOTICompiledModel.loader (the wrapped AOTIModelPackageLoader)",
    }

    def loop_of(run: Any, inputs: Arrays, outputs: Arrays) -> Loop:
        if is_program_run(options):
            return tensors_loop(run, path, options, inputs, outputs)
        x = per_call_inputs(inputs[0], options.batch)
        store = storer(outputs[0], options.batch)
        first_call(path, lambda t: run([t])[0], x[0], options.batch)

        def loop_ours(start: int, stop: int) -> None:
            for i in range(start, stop):
                store(i, run([x[i]])[0])

        return loop_ours

    def caller(inputs: Arrays, outputs: Arrays) -> Loop:
        _, own = load_package(options, single_threaded=True)
        return loop_of(own.loader.run, inputs, outputs)

    with torch.inference_mode():
        loop = loop_of(compiled.loader.run, inputs, outputs)
    return Model(loop, torch.__version__, notes, context=torch.inference_mode,
                 sharing=Sharing(PER_CALLER, PER_CALLER_PACKAGE, caller))  # fmt: skip
