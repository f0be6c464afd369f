"""Build the compiled floors' native pieces into build/python/; --test checks them, --lint -Werror.

From python/callbench/drivers/native/, with this environment's pinned Cython
and cffi and the system C compiler (``$CC``, else ``cc``):

- ``libcallbench_mlp.so``: the C forward (python-ctypes loads it),
- ``callbench_mlp_cffi<EXT_SUFFIX>``: cffi's API-mode extension over that library (python-cffi),
- ``callbench_mlp_cython<EXT_SUFFIX>``: the Cython forward (python-cython, python-cython-loop).

Nothing is rebuilt when a stamp of the sources, tool versions and flags
matches. --test runs each built forward on random weights against NumPy
(no models needed); --lint compiles with every warning an error.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import _build
from _build import BuildError, run

try:
    import numpy as np

    from callbench.drivers import native_modules as native
    from callbench.drivers.ctypes_forward import Mlp
    from callbench.drivers.raw_weights import RawWeights
    from callbench.model.architecture import HIDDEN, weight_count
except ImportError as exc:  # run outside the project's environment
    sys.exit(f"build_python: error: {exc.name} cannot be imported: run it with the project "
             "installed (`callbench build python`, or pip install -e . first)")  # fmt: skip

PROG = "build_python"
# As cpp/drivers: relu becomes one maxss instead of a compare-and-jump that mispredicts
# on random inputs (inputs and weights are checked finite before any call).
CFLAGS = ["-O3", "-ffinite-math-only", "-fno-signed-zeros", "-fPIC", "-shared", "-std=c11",
          "-DNDEBUG"]  # fmt: skip
LINT_FLAGS = ["-Wall", "-Wextra", "-Werror"]
STAMP = native.BUILD_DIR / ".build-stamp"


def compiler() -> list[str]:
    cc = shlex.split(os.environ.get("CC") or "cc")
    if not cc or shutil.which(cc[0]) is None:
        raise BuildError(f"{cc[0] if cc else 'cc'} not found: install a C compiler "
                         "(apt-get install gcc) or set CC")  # fmt: skip
    return cc


def python_include() -> Path:
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").is_file():
        raise BuildError(
            f"Python.h not found in {include}: install this Python's headers "
            f"(apt-get install python{sys.version_info.major}.{sys.version_info.minor}-dev)"
        )
    return include


def tool_versions() -> str:
    """Cython's and cffi's versions; BuildError naming the pin when one is missing."""
    found = []
    for package in ("cython", "cffi"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            raise BuildError(f"{package} is not installed in {sys.prefix}: install the project "
                             "(pip install -e .), which pins it") from None  # fmt: skip
    return ", ".join(found)


def stamp_of(cc: list[str], flags: list[str]) -> str:
    digest = hashlib.sha256()
    for path in (native.C_SOURCE, native.C_HEADER, native.CYTHON_SOURCE, Path(__file__)):
        digest.update(path.read_bytes())
    digest.update(" ".join([*cc, *flags, tool_versions(), sys.version]).encode())
    return digest.hexdigest()


def cython_to_c(generated: Path, extra: list[str]) -> Path:
    out = generated / f"{native.CYTHON_MODULE}.c"
    run(sys.executable, "-m", "cython", "-3", *extra, "--module-name", native.CYTHON_MODULE,
        native.CYTHON_SOURCE, "-o", out)  # fmt: skip
    return out


def cffi_to_c(generated: Path) -> Path:
    import cffi  # type: ignore[import-untyped]

    builder = cffi.FFI()
    builder.cdef(native.C_DECLARATION)
    builder.set_source(native.CFFI_MODULE, f'#include "{native.C_HEADER.name}"')
    out = generated / f"{native.CFFI_MODULE}.c"
    builder.emit_c_code(str(out))
    return out


def compile_pieces(
    cc: list[str], flags: list[str], generated: Path, cython_flags: list[str]
) -> None:
    include = python_include()
    out = native.BUILD_DIR
    out.mkdir(parents=True, exist_ok=True)
    run(*cc, *flags, native.C_SOURCE, "-o", native.library_path())
    cffi_c = cffi_to_c(generated)
    run(*cc, *flags, "-I", include, "-I", native.SOURCE_DIR, cffi_c,
        "-L", out, "-lcallbench_mlp", "-Wl,-rpath,$ORIGIN",
        "-o", native.extension_path(native.CFFI_MODULE))  # fmt: skip
    cython_c = cython_to_c(generated, cython_flags)
    run(*cc, *flags, "-I", include, cython_c,
        "-o", native.extension_path(native.CYTHON_MODULE))  # fmt: skip


def numpy_forward(raw: RawWeights, x: np.ndarray) -> np.ndarray:
    (a, a_bias), (b, b_bias), (c, c_bias) = raw.layers()
    h = np.maximum(x @ a.T + a_bias, 0)
    h = np.maximum(h @ b.T + b_bias, 0)
    y: np.ndarray = (h @ c.T + c_bias).reshape(-1)
    return y


def self_test(calls: int = 16, batch: int = 4) -> None:
    """Each built forward on random weights and inputs, against NumPy, at the reference's
    width (the loops' unrolled path) and at a wider one."""
    import ctypes

    rng = np.random.default_rng(4)
    x = rng.uniform(-10, 10, (calls * batch, 2)).astype(np.float32)
    c_forward = ctypes.CDLL(str(native.library_path())).callbench_mlp_forward
    c_forward.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    cffi_ext = native.load_extension(native.CFFI_MODULE)
    ffi = cffi_ext.ffi
    for hidden in (HIDDEN, 24):
        raw = RawWeights(rng.standard_normal(weight_count(hidden)).astype(np.float32), hidden)
        w = raw.for_loops()
        expected = numpy_forward(raw, x)
        got: dict[str, np.ndarray] = {}

        y = np.full(calls * batch, np.nan, dtype=np.float32)
        forward = native.load_extension(native.CYTHON_MODULE).Forward(w, hidden, x, y, batch)
        for i in range(calls):
            forward.call(i)
        got["cython call"] = y.copy()
        y.fill(np.nan)
        forward.run(0, calls)
        got["cython run"] = y.copy()

        y.fill(np.nan)
        model = Mlp(w.ctypes.data, hidden)
        c_forward(ctypes.addressof(model), x.ctypes.data, y.ctypes.data, calls * batch)
        got["C library"] = y.copy()

        y.fill(np.nan)
        w_buffer = ffi.from_buffer("float[]", w)
        cffi_ext.lib.callbench_mlp_forward(
            ffi.new("callbench_mlp *", {"weights": w_buffer, "hidden": hidden}),
            ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y), calls * batch,
        )  # fmt: skip
        got["cffi"] = y.copy()

        for what, values in got.items():
            error = float(np.max(np.abs(values - expected)))
            if not error <= 1e-4:
                raise BuildError(f"self-test: the {what} forward at width {hidden} is off "
                                 f"NumPy's by {error}")  # fmt: skip
            print(f"{PROG}: self-test: {what} at width {hidden} matches NumPy "
                  f"(max error {error:.1e})")  # fmt: skip


def lint(cc: list[str]) -> None:
    """The C source and Cython with every warning an error (into a scratch folder)."""
    with tempfile.TemporaryDirectory(prefix="callbench-lint-") as scratch:
        run(*cc, *CFLAGS, *LINT_FLAGS, "-c", native.C_SOURCE, "-o", Path(scratch) / "mlp.o")
        cython_to_c(Path(scratch), ["-Wextra", "--warning-errors"])


def build(args: argparse.Namespace) -> str:
    cc = compiler()
    python_include()
    stamp = stamp_of(cc, CFLAGS)
    built = [native.library_path(), native.extension_path(native.CFFI_MODULE),
             native.extension_path(native.CYTHON_MODULE)]  # fmt: skip
    if STAMP.is_file() and STAMP.read_text().strip() == stamp and all(p.is_file() for p in built):
        print(f"{PROG}: {native.BUILD_DIR} is up to date", flush=True)
    else:
        STAMP.unlink(missing_ok=True)
        with tempfile.TemporaryDirectory(prefix="callbench-build-") as generated:
            compile_pieces(cc, CFLAGS, Path(generated), [])
        STAMP.write_text(stamp + "\n")
    if args.test:
        self_test()
    if args.lint:
        lint(cc)
    return f"built in {native.BUILD_DIR}"


if __name__ == "__main__":
    sys.exit(
        _build.main(
            PROG,
            __doc__,
            build,
            test_help="check each built forward too",
            lint_help="compile with warnings as errors too",
        )
    )
