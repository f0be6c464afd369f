"""Python drivers: a function in ``callbench.drivers``, run by the Python driver kit.

The registry names the function as ``module:function``; the harness starts
``python -m callbench.driverkit <driver-id> <module:function>``, which imports only that module,
so the NumPy driver's load time and memory do not include torch.
"""

from __future__ import annotations

import os
import shlex
import sys
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path

import numpy as np

from callbench.driver_options import Options
from callbench.driverkit import host
from callbench.driverkit.entry import PACKAGE, load_setup
from callbench.driverkit.inputs import read_inputs
from callbench.languages.spec import DriverSpec, always_available, built_by
from callbench.model.artifacts import signature
from callbench.paths import REPO_ROOT

LANGUAGE = "Python"
# -W ignore: torch.jit's deprecation warning is the report's to say, once.
KIT = ("-W", "ignore", "-m", "callbench.driverkit")
# The kit's in-process host, for the profiler (cProfile, the ladder) and py-spy's target.
HOST = "callbench.driverkit.host"
SPIN = host.SPIN
Hosted = host.Loaded


def hosted(driver_id: str, entry: str, options: Options) -> AbstractContextManager[Hosted]:
    """A Python driver loaded and warmed up in this process (only its entry's module imported)."""
    return host.loaded(driver_id, load_setup(entry), options)


def inputs_for(options: Options) -> np.ndarray:
    """The run's samples of the model's first input as the kit reads them (``calls`` x
    ``batch``, checked): the ladder's MLP has one."""
    return read_inputs(options, signature(options.models))[0]


def _source(module: str) -> Path:
    return REPO_ROOT / "python" / Path(*module.split(".")).with_suffix(".py")


def _native(piece: str) -> str | None:
    from callbench.drivers.native_modules import build_available

    return build_available(piece)


def driver(
    driver_id: str, runtime: str, artifact: str, entry: str, *, native: str | None = None
) -> DriverSpec:
    """``entry`` is ``module:function`` under callbench.drivers (the driver's setup);
    ``native`` names the compiled piece it needs from ``callbench build python``."""
    module = f"{PACKAGE}.{entry.split(':')[0]}"
    spec = DriverSpec(
        id=driver_id,
        language=LANGUAGE,
        runtime=runtime,
        artifact=artifact,
        source=_source(module),
        command=lambda: [sys.executable, *KIT, driver_id, entry],
        entry=entry,
        available=partial(_native, native) if native else always_available,
    )
    if native is None:
        return spec
    # scripts/build_python.py compiles with $CC, else cc.
    compiler = (shlex.split(os.environ.get("CC") or "") or ["cc"])[0]
    return built_by(spec, (compiler,), "a C compiler (apt-get install gcc), or set CC")


def independent(driver_id: str, runtime: str, artifact: str, module: str) -> DriverSpec:
    """A plain standalone caller in callbench.independent that shares no driver code."""
    full = f"callbench.independent.{module}"
    return DriverSpec(
        id=driver_id,
        language=LANGUAGE,
        runtime=runtime,
        artifact=artifact,
        source=_source(full),
        command=lambda: [sys.executable, "-W", "ignore", "-m", full],
        one_caller="a plain loop of one caller",
    )
