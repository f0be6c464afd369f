"""The compiled pieces of the compiled-floor drivers: where they are built, and loading them.

``scripts/build_python.py`` (run by ``callbench build python``) builds, from
``drivers/native/``, into ``build/python/``:

- the Cython extension ``callbench_mlp_cython`` (python-cython, python-cython-loop),
- the C library ``libcallbench_mlp.so`` (python-ctypes loads it),
- the cffi extension ``callbench_mlp_cffi``, linked against that library (python-cffi).

``CALLBENCH_PYTHON_BUILD`` points at another build folder (tests use it to
show what a driver says when nothing is built).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sysconfig
from pathlib import Path
from types import ModuleType

import numpy as np

from callbench.driver_options import Options
from callbench.drivers.raw_weights import read_raw
from callbench.errors import DataError
from callbench.model.artifacts import WEIGHTS
from callbench.paths import BUILD

SOURCE_DIR = Path(__file__).resolve().parent / "native"
BUILD_DIR = Path(os.environ.get("CALLBENCH_PYTHON_BUILD") or BUILD / "python")
BUILD_HINT = "run `callbench build python`"

CYTHON_SOURCE = SOURCE_DIR / "mlp_cython.pyx"
C_SOURCE = SOURCE_DIR / "mlp_forward.c"
C_HEADER = SOURCE_DIR / "mlp_forward.h"

CYTHON_MODULE = "callbench_mlp_cython"
CFFI_MODULE = "callbench_mlp_cffi"
C_LIBRARY = "libcallbench_mlp.so"
# The C forward as cffi reads it (cffi's cdef takes declarations, not a header with #include).
C_DECLARATION = (
    "typedef struct { const float *weights; int64_t hidden; } callbench_mlp;\n"
    "void callbench_mlp_forward(const callbench_mlp *mlp, const float *x, float *y,"
    " int64_t batch);"
)
# The widest model the C and Cython loops' scratch layers hold.
MAX_HIDDEN = 4096


def loop_weights(options: Options) -> tuple[np.ndarray, int]:
    """The weights as the C and Cython loops read them (raw_weights.RawWeights.for_loops), and
    their hidden width; DataError naming the file for a width wider than the loops hold."""
    raw = read_raw(options)
    if raw.hidden > MAX_HIDDEN:
        path = options.models / WEIGHTS
        raise DataError(path, f"width {raw.hidden} is wider than the C loops' {MAX_HIDDEN}")
    return raw.for_loops(), raw.hidden


def extension_path(module: str) -> Path:
    """The file an extension module is built to, for this interpreter's ABI."""
    return BUILD_DIR / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"


def library_path() -> Path:
    return BUILD_DIR / C_LIBRARY


def require_built(path: Path) -> Path:
    if not path.is_file():
        raise DataError(path, f"not built; {BUILD_HINT}")
    return path


def load_extension(module: str) -> ModuleType:
    """Import a built extension module from build/python/ (no sys.path change)."""
    path = require_built(extension_path(module))
    loader = importlib.machinery.ExtensionFileLoader(module, str(path))
    spec = importlib.util.spec_from_file_location(module, path, loader=loader)
    if spec is None:
        raise DataError(path, f"is not an extension module; {BUILD_HINT}")
    try:
        extension = importlib.util.module_from_spec(spec)
        loader.exec_module(extension)
    except ImportError as exc:
        raise DataError(path, f"cannot be loaded ({exc}); {BUILD_HINT}") from None
    return extension


def build_available(piece: str) -> str | None:
    """None when ``piece`` ("cython", "cffi" or "ctypes") is built here, else why it is not.

    For a registry line's ``available``, so an unbuilt driver is skipped with the hint.
    """
    needed = {
        "cython": [extension_path(CYTHON_MODULE)],
        "cffi": [extension_path(CFFI_MODULE), library_path()],
        "ctypes": [library_path()],
    }[piece]
    missing = [p for p in needed if not p.is_file()]
    return f"{missing[0]} not built; {BUILD_HINT}" if missing else None
