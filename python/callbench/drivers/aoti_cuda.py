"""python-aoti-cuda: the AOTInductor package for the CUDA device, ``mlp_cuda.pt2`` (our MLP,
or in a ``--torch`` run the user's program, compiled on the GPU host by
``aoti_compile_and_package`` with the program on the device), loaded with
``aoti_load_package``: the documented way. Each call copies its samples to the device,
calls the compiled model and copies each result back (the copy back waits for the GPU).

The compile is made with the artifacts, not in the load time: its seconds are in the
manifest (``export_seconds.json`` for our MLP, the ``artifacts`` table for a program), and
the record's notes repeat them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
import torch._inductor.package  # imported here, not in the load time (as python-aoti)

from callbench.driver_options import Options
from callbench.driverkit.model import Arrays, Model, every_tensor, model_error
from callbench.drivers import cuda_common
from callbench.model import artifacts as art
from callbench.model.exported_programs import AOTI_CUDA_PACKAGE
from callbench.model.user_onnx import ORIGIN


def load_package(options: Options, device: torch.device) -> tuple[Any, Path]:
    path = art.require(options.models, AOTI_CUDA_PACKAGE)
    try:
        index = -1 if device.index is None else device.index  # -1: the current device
        compiled = torch._inductor.aoti_load_package(str(path), device_index=index)
    except Exception as exc:  # torch raises RuntimeError for bad zips, others for bad metadata
        raise model_error(path, exc) from None
    return compiled, path


def compile_seconds(models: Path) -> float | None:
    """The package's compile time, as the artifacts' manifest recorded it."""
    made = (art.read_manifest(models).get(ORIGIN) or {}).get("artifacts") or {}
    if AOTI_CUDA_PACKAGE in made:
        found = made[AOTI_CUDA_PACKAGE].get("seconds")
    else:
        path = models / art.EXPORT_SECONDS
        found = (json.loads(path.read_text()) if path.is_file() else {}).get(AOTI_CUDA_PACKAGE)
    return None if found is None else float(found)


@every_tensor
def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
    gpu = cuda_common.on_device(options, inputs, outputs, load_package)
    with torch.inference_mode():
        loop = cuda_common.copying_loop(gpu.model, gpu, options.batch)
    notes = cuda_common.notes("x.to('cuda') + AOTICompiledModel(x) + copy back, each call; "
                              "from aoti_load_package(path)")  # fmt: skip
    notes["compile_s"] = compile_seconds(options.models)
    return Model(loop, torch.__version__, notes, context=torch.inference_mode)
