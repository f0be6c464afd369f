"""Python's compiled floors (Cython, cffi, ctypes, numba, JAX): registered, run end to end by
the harness and verified against the reference, and clear about a missing build."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench.driver_options import Options
from callbench.driverkit.inputs import read_inputs
from callbench.drivers import native_modules as native
from callbench.model import artifacts as art
from callbench.registry import lookup
from tests.conftest import HarnessRun, assert_verified

FLOORS = (
    "python-cython", "python-cython-loop", "python-cffi", "python-ctypes",
    "python-numba", "python-jax", "python-jax-numpy",
)  # fmt: skip
BUILT = {"python-cython": "cython", "python-cython-loop": "cython", "python-cffi": "cffi",
         "python-ctypes": "ctypes"}  # fmt: skip


def require_built(driver_id: str) -> None:
    piece = BUILT.get(driver_id)
    reason = native.build_available(piece) if piece else None
    if reason is not None:
        pytest.skip(reason)


@pytest.mark.parametrize("driver_id", FLOORS)
def test_each_floor_is_registered_with_its_source(driver_id: str) -> None:
    spec = lookup(driver_id)
    assert spec.language == "Python" and spec.artifact == art.WEIGHTS
    assert spec.source.is_file(), spec.source


@pytest.mark.parametrize("batch", [1, 3])
def test_every_floor_is_verified_end_to_end(
    run_harness: Callable[..., HarnessRun], batch: int
) -> None:
    only = [a for d in FLOORS for a in ("--only", d)]
    run = run_harness(*only, "--calls", "200", "--rounds", "2", "--warmup", "20",
                      "--batch", str(batch))  # fmt: skip
    ready = [d for d in FLOORS if BUILT.get(d) is None or native.build_available(BUILT[d]) is None]
    assert_verified(run, ready, rounds=2, batch=batch)


def test_the_cython_loop_is_one_call_into_the_extension(small_models: Path) -> None:
    """python-cython-loop's loop(start, stop) is the extension's own method, not Python."""
    require_built("python-cython-loop")
    from callbench.drivers.cython_forward import per_call, whole_loop

    options = Options(models=small_models, calls=50, batch=2)
    inputs = read_inputs(options, art.signature(options.models))[0]
    outputs = np.full((options.calls * options.batch, 1), np.nan, dtype=np.float32)
    prepared = whole_loop(options, inputs, outputs)
    assert type(prepared.loop).__name__ == "builtin_function_or_method"
    assert type(prepared.loop.__self__).__name__ == "Forward"  # type: ignore[attr-defined]
    prepared.loop(0, options.calls)
    looped = outputs.copy()
    outputs.fill(np.nan)
    per_call(options, inputs, outputs).loop(0, options.calls)
    reference = art.read_reference(small_models)[: len(outputs)]
    assert np.max(np.abs(looped - reference)) <= 1e-4
    np.testing.assert_array_equal(looped, outputs)


@pytest.mark.parametrize("width", [None, 16])
def test_the_numba_forward_is_plain_python_too(small_models: Path, width: int | None) -> None:
    """The function numba compiles gives the reference's outputs as ordinary Python, at the
    reference's width and at the small family's 16."""
    from callbench.drivers.numba_forward import make_forward
    from callbench.drivers.raw_weights import read_raw

    models = small_models if width is None else small_models / art.family_folder(width)
    options = Options(models=models, calls=20)
    x = read_inputs(options, art.signature(options.models))[0]
    y = np.full((20, 1), np.nan, dtype=np.float32)
    raw = read_raw(options)
    assert raw.hidden == (width or 8)
    forward = make_forward(raw.hidden)
    weights = raw.for_loops()
    for i in range(20):
        forward(weights, x, y, i, 1)
    assert np.max(np.abs(y - art.read_reference(models)[:20])) <= 1e-4


@pytest.mark.parametrize("driver_id", ["python-cython", "python-cffi", "python-ctypes"])
def test_a_missing_build_says_to_build(driver_id: str, small_models: Path, tmp_path: Path) -> None:
    spec = lookup(driver_id)
    done = subprocess.run(
        [*spec.command(), "--models", str(small_models), "--calls", "10", "--repeats", "1"],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, **spec.env(), "CALLBENCH_PYTHON_BUILD": str(tmp_path / "nothing")},
    )  # fmt: skip
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 1, done.stderr
    assert lines[-1].startswith(f"{driver_id}: error: {tmp_path / 'nothing'}"), lines
    assert "callbench build python" in lines[-1]
    assert "Traceback" not in done.stderr


def test_the_build_script_explains_a_missing_compiler(repo_root: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(repo_root / "scripts" / "build_python.py")],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "CC": "no-such-compiler"},
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "build_python: error: no-such-compiler not found: install a C compiler "
        "(apt-get install gcc) or set CC"
    ]
