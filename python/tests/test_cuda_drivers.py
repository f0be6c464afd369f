"""The GPU rows where there is no GPU: each is skipped saying why, what runs on the CPU
(arguments, the fallback lines) behaves, and the CuPy kernel's own source, compiled as
plain C with the CUDA qualifiers defined away, computes our MLP from mlp_weights.f32."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from callbench.driver_options import Options
from callbench.drivers import cuda_common
from callbench.drivers.cupy_kernel import SOURCE
from callbench.errors import UsageError
from callbench.model.architecture import layers
from callbench.registry import DRIVERS
from callbench.roles import GPU
from tests.conftest import HarnessRun

GPU_ROWS = [d.id for d in DRIVERS if GPU in d.roles]
no_device = pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is here")

# The kernel's body as C on the CPU: the qualifiers defined away, one "thread" per loop turn.
# The kernels as C: each CUDA index a global the loops set; a barrier is the end of a loop
# over a block's threads (the wide kernel's phases, called in its order).
CPU_WRAPPER = """
#define __global__
#define __device__
#define __shared__
#define __syncthreads()
struct callbench_index { int x; };
static struct callbench_index threadIdx, blockIdx = {0}, blockDim = {1};
float shared[4096 + 1024];
#include "mlp_forward.cu"
void forward_all(const float* x, const float* w, float* y, int n, int h) {
  for (int t = 0; t < n; ++t) {
    threadIdx.x = t;
    mlp_forward(x, w, y, n, h);
  }
}
void forward_wide_all(const float* x, const float* w, float* y, int n, int h, int threads) {
  float* a = shared;
  float* shares = shared + h;
  for (int i = 0; i < n; ++i) {
    for (int t = 0; t < threads; ++t) wide_first_layer(x, w, a, h, i, t, threads);
    for (int t = 0; t < threads; ++t) shares[t] = wide_share(w, a, h, t, threads);
    y[i] = wide_output(w, shares, h, threads);
  }
}
"""


def test_the_nine_gpu_rows_are_registered_and_one_is_the_floor() -> None:
    from callbench.registry import with_role
    from callbench.roles import GPU_FLOOR

    assert GPU_ROWS == ["python-eager-cuda", "python-cuda-graph", "python-torch-compile-cuda",
                        "python-aoti-cuda", "python-cupy-kernel", "cpp-cuda-floor",
                        "cpp-cuda-kernel", "cpp-cuda-graph", "cpp-aoti-cuda"]  # fmt: skip
    assert [d.id for d in with_role(GPU_FLOOR)] == ["cpp-cuda-floor"]


@no_device
@pytest.mark.parametrize(
    "driver_id", ["cpp-cuda-floor", "cpp-cuda-kernel", "cpp-cuda-graph", "cpp-aoti-cuda"]
)
def test_a_cpp_gpu_row_started_by_hand_without_a_device_says_why_in_one_line(
    driver_id: str, small_models: Path
) -> None:
    """Built here from the torch wheel's cuda.h and NVRTC (the AOTInductor row from its
    LibTorch); libcuda.so.1 is loaded at run time, so without an NVIDIA driver the binary
    says so: exit 2, one line."""
    from callbench.languages.cpp import BIN_DIR

    binary = BIN_DIR / driver_id
    if not binary.is_file():
        pytest.skip(f"{binary} not built (scripts/build_cpp.py --cuda on builds it)")
    done = subprocess.run([str(binary), "--models", str(small_models), "--calls", "4"],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if not ln.startswith("progress:")]
    assert line.startswith(f"{driver_id}: usage: no CUDA device ("), line


def test_the_cuda_rows_are_built_where_a_device_is_asked_or_for_lint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from callbench.paths import REPO_ROOT

    monkeypatch.syspath_prepend(str(REPO_ROOT / "scripts"))
    from build_cpp import builds_cuda

    assert not builds_cuda("auto", lint=False, device=False)  # this machine, CI: as before
    assert builds_cuda("auto", lint=False, device=True)  # a GPU host
    assert builds_cuda("auto", lint=True, device=False)  # -Wall -Wextra on their code too
    assert builds_cuda("on", lint=False, device=False)
    assert not builds_cuda("off", lint=True, device=True)


def test_the_cpp_build_without_cuda_leaves_the_cuda_rows_out_saying_why() -> None:
    """CALLBENCH_CUDA off: no CUDA row's binary, each skip file naming the option, and every
    other C++ row built as before (those skipped for their own runtime aside)."""
    from callbench.languages.cpp import BIN_DIR

    cache = BIN_DIR.parent / "CMakeCache.txt"
    if not cache.is_file() or "CALLBENCH_CUDA:BOOL=OFF" not in cache.read_text():
        pytest.skip("the C++ build here is not one with CALLBENCH_CUDA off")
    cpp = [d for d in DRIVERS if d.language == "C++"]
    for spec in cpp:
        binary, skipped = BIN_DIR / spec.id, BIN_DIR / f"{spec.id}.skipped"
        if GPU in spec.roles:
            assert not binary.exists(), spec.id
            assert skipped.read_text().startswith("CALLBENCH_CUDA is off: "), spec.id
        else:
            assert binary.is_file() or skipped.is_file(), spec.id
            assert "CALLBENCH_CUDA" not in (skipped.read_text() if skipped.is_file() else "")


def test_a_gpu_rows_skip_says_no_device_before_its_build() -> None:
    """A C++ GPU row not built on a machine without a device is skipped for the device; on a
    GPU host not built, for the build."""
    from dataclasses import replace

    from callbench.languages.marks import gpu
    from callbench.registry import lookup

    plain = replace(lookup("cpp-cuda-kernel"), available=lambda: "bin/cpp-cuda-kernel missing")
    assert gpu(plain, needs=lambda: "no CUDA device").available() == "no CUDA device"
    assert gpu(plain, needs=lambda: None).available() == "bin/cpp-cuda-kernel missing"
    built = replace(plain, available=lambda: None)
    assert gpu(built, needs=lambda: None).available() is None


@no_device
def test_every_gpu_row_is_skipped_saying_why_without_a_device(
    run_harness: Callable[..., HarnessRun],
) -> None:
    only = [a for d in GPU_ROWS for a in ("--only", d)]
    run = run_harness(*only, "--calls", "20", "--rounds", "1")
    assert run.returncode == 0, run.stderr
    for driver_id in GPU_ROWS:
        record = run.records[driver_id]
        assert record.status == "skipped", driver_id
        assert str(record.error).startswith(("no CUDA device", "cupy not installed")), record.error
    assert run.records["python-eager-cuda"].error == (
        "no CUDA device (torch.cuda.is_available() is False)"
    )


@no_device
def test_callbench_list_says_why_each_gpu_row_cannot_run() -> None:
    from callbench.cli.listing import listing

    lines = {line.split()[0]: line for line in listing().splitlines() if line[:1].strip()}
    for driver_id in GPU_ROWS:
        assert "cannot run: " in lines[driver_id], lines[driver_id]
    assert lines["python-cuda-graph"].endswith(
        "cannot run: no CUDA device (torch.cuda.is_available() is False)"
    )


@no_device
@pytest.mark.parametrize(
    "entry", ["cuda_eager", "cuda_graph", "torch_compile_cuda", "aoti_cuda", "cupy_kernel"]
)
def test_a_gpu_row_started_by_hand_without_a_device_is_a_usage_error(
    entry: str, small_models: Path
) -> None:
    import importlib

    from callbench.driverkit.model import EVERY_TENSOR

    setup = importlib.import_module(f"callbench.drivers.{entry}").setup
    x, y = np.zeros((4, 2), np.float32), np.zeros((4, 1), np.float32)
    every = getattr(setup, EVERY_TENSOR, False)
    with pytest.raises(UsageError, match=r"^(no CUDA device|cupy not installed)"):
        setup(Options(models=small_models, calls=4), *(((x,), (y,)) if every else (x, y)))


def test_torch_compile_cuda_refuses_another_batch_than_one(small_models: Path) -> None:
    from callbench.drivers import torch_compile_cuda

    x, y = np.zeros((6, 2), np.float32), np.zeros((6, 1), np.float32)
    with pytest.raises(UsageError, match=r"batch 1 only: torch\.compile compiles again"):
        torch_compile_cuda.setup(Options(models=small_models, calls=2, batch=3), (x,), (y,))


def reference(flat: np.ndarray, hidden: int, x: np.ndarray) -> np.ndarray:
    """Our MLP in NumPy from the file's layout: each layer's [out, in] weight, then its bias."""
    h, offset = x.astype(np.float64), 0
    parts = layers(hidden)
    for n, (_, fan_in, fan_out) in enumerate(parts):
        w = flat[offset : offset + fan_out * fan_in].reshape(fan_out, fan_in)
        offset += fan_out * fan_in
        h = h @ w.T + flat[offset : offset + fan_out]
        offset += fan_out
        if n < len(parts) - 1:
            h = np.maximum(h, 0.0)
    return h.reshape(-1)


@pytest.fixture(scope="module")
def kernel_on_cpu(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    folder = tmp_path_factory.mktemp("kernel")
    (folder / "wrapper.c").write_text(CPU_WRAPPER)
    library = folder / "kernel.so"
    subprocess.run([compiler, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-fPIC",
                    "-shared", "-I", str(SOURCE.parent), "-x", "c", str(folder / "wrapper.c"),
                    "-o", str(library)], check=True)  # fmt: skip
    lib = ctypes.CDLL(str(library))
    pointer = ctypes.POINTER(ctypes.c_float)
    lib.forward_all.argtypes = [pointer, pointer, pointer, ctypes.c_int, ctypes.c_int]
    lib.forward_wide_all.argtypes = [*lib.forward_all.argtypes, ctypes.c_int]
    return lib


def run_kernel(
    lib: ctypes.CDLL, flat: np.ndarray, hidden: int, x: np.ndarray, threads: int | None = None
) -> np.ndarray:
    """The narrow kernel, or with ``threads`` the wide one (one block of that many threads
    per sample)."""
    y = np.full(len(x), np.nan, np.float32)
    as_floats = ctypes.POINTER(ctypes.c_float)
    args = (x.ctypes.data_as(as_floats), flat.ctypes.data_as(as_floats),
            y.ctypes.data_as(as_floats), len(x), hidden)  # fmt: skip
    if threads is None:
        lib.forward_all(*args)
    else:
        lib.forward_wide_all(*args, threads)
    return y


# The wide kernel with more threads than units (some idle) and with fewer (several units each).
@pytest.mark.parametrize(("hidden", "threads"), [(8, None), (64, None), (8, 32), (64, 32),
                                                 (200, 128)])  # fmt: skip
def test_the_cupy_kernel_source_computes_our_mlp_from_the_weights_file(
    kernel_on_cpu: ctypes.CDLL, hidden: int, threads: int | None
) -> None:
    rng = np.random.default_rng(hidden)
    count = hidden * hidden + 5 * hidden + 1
    flat = rng.normal(0.0, 0.5, count).astype(np.float32)
    x = rng.normal(0.0, 1.0, (257, 2)).astype(np.float32)
    want = reference(flat, hidden, x)
    got = run_kernel(kernel_on_cpu, flat, hidden, x, threads)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(want).max()))
    # The check has teeth: the second layer's weight read transposed (a wrong index) differs.
    a_end = 3 * hidden
    swapped = flat.copy()
    b = swapped[a_end : a_end + hidden * hidden].reshape(hidden, hidden)
    swapped[a_end : a_end + hidden * hidden] = b.T.reshape(-1)
    assert not np.allclose(run_kernel(kernel_on_cpu, swapped, hidden, x, threads), want,
                           rtol=1e-5)  # fmt: skip


def test_the_cupy_kernel_source_matches_the_exported_weights(
    kernel_on_cpu: ctypes.CDLL, small_models: Path
) -> None:
    """On the small set's own mlp_weights.f32 and inputs, against its reference outputs."""
    from callbench.drivers.raw_weights import read_raw

    weights = read_raw(Options(models=small_models))
    x = np.fromfile(small_models / "inputs.f32", np.float32).reshape(-1, 2)[:1000]
    want = np.fromfile(small_models / "reference.f32", np.float32)[:1000]
    got = run_kernel(kernel_on_cpu, weights.flat, weights.hidden, np.ascontiguousarray(x))
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(want).max()))


def test_the_gpu_rows_skip_reasons_come_from_the_kernels_checks() -> None:
    from callbench.cuda_probe import load_cupy, torch_reason

    assert cuda_common.torch_unavailable() == torch_reason()
    assert cuda_common.cupy_unavailable() == load_cupy()[1]


def test_the_gpu_rows_checks_need_no_kernel_dependency() -> None:
    """A GPU host's Python may lack numexpr (the kernels' optional extra): the registry's
    checks of the GPU rows must not import it (they once did, through the CUDA kernels)."""
    probe = (
        "import sys; sys.modules['numexpr'] = None\n"
        "from callbench.registry import DRIVERS\n"
        "from callbench.roles import GPU\n"
        "print([s.available() is None or s.available()[:4] for s in DRIVERS if GPU in s.roles])"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=False, cwd=Path(__file__).parents[2])  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_gpu_sweep_takes_the_gpu_rows_and_each_languages_fastest_cpu_row() -> None:
    """With a device (faked: the rows' checks say they can run), the GPU rows that take any
    batch and the fastest verified CPU row of each language; without one, nothing."""
    from dataclasses import replace

    from callbench.harness.load import gpu_sweep
    from tests.test_report import driver

    can_run = [replace(d, available=lambda: None) if GPU in d.roles else d for d in DRIVERS]
    records = [
        driver("python-numpy", [5000.0] * 3),
        driver("python-cython-loop", [900.0] * 3),
        driver("python-eager-seed", [100.0] * 3),  # takes batch 1 only: never swept
        driver("cpp-handwritten", [80.0] * 3, language="C++"),
        driver("cpp-libtorch", [70.0] * 3, language="C++", status="failed"),
        driver("python-eager-cuda", [50.0] * 3),  # a GPU row is not a CPU row
    ]
    chosen = [s.id for s in gpu_sweep.drivers(can_run, records)]
    assert chosen == ["python-eager-cuda", "python-cuda-graph", "python-aoti-cuda",
                      "python-cupy-kernel", "cpp-cuda-floor", "cpp-cuda-kernel",
                      "cpp-cuda-graph", "cpp-aoti-cuda", "python-cython-loop",
                      "cpp-handwritten"]  # fmt: skip
    if not torch.cuda.is_available():
        assert gpu_sweep.drivers(DRIVERS, records) == []


def test_a_gpu_row_joins_the_sweeps_only_where_it_can_run_and_takes_any_batch() -> None:
    from dataclasses import replace

    from callbench.harness.load.gpu_sweep import runs_here
    from callbench.registry import lookup

    graph, compiled = lookup("python-cuda-graph"), lookup("python-torch-compile-cuda")
    assert runs_here(replace(graph, available=lambda: None))
    assert not runs_here(replace(compiled, available=lambda: None))  # batch 1 only
    assert not runs_here(replace(graph, available=lambda: "no CUDA device"))
    assert not runs_here(replace(lookup("python-numpy"), available=lambda: None))


def test_the_grid_takes_each_widths_fastest_cpu_row_and_the_batches_its_samples_hold(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a wider width the GPU batch sweep runs again: the GPU rows and the fastest CPU row
    of each language at that width (the width sweep's records), at the batches the width's
    samples hold, each point's record naming the width; the reference width has none."""
    from dataclasses import replace

    from callbench.harness.load import gpu_sweep
    from callbench.harness.options import RunOptions
    from callbench.model.family import Width
    from tests.test_report import driver

    can_run = [replace(d, available=lambda: None) if GPU in d.roles else d for d in DRIVERS]
    at = {"kind": "width", "value": 512}
    records = [
        driver("python-numpy", [900.0] * 3, sweep=at),
        driver("python-onnxruntime-iobinding", [400.0] * 3, sweep=at),
        driver("python-numba", [10.0] * 3),  # the main group's: not of width 512
        driver("cpp-handwritten", [600.0] * 3, language="C++", sweep=at),
    ]
    chosen = [s.id for s in gpu_sweep.drivers(can_run, records, 512)]
    assert chosen[-2:] == ["python-onnxruntime-iobinding", "cpp-handwritten"]
    calls: list[tuple[list[str], Path, list[int], int | None]] = []

    def fake_sweep(kind, specs, options, run_dir, values, width=None):  # type: ignore[no-untyped-def]
        calls.append(([s.id for s in specs], options.models, list(values), width))
        return []

    monkeypatch.setattr(gpu_sweep, "run_sweep", fake_sweep)
    held = np.fromfile(small_models / "reference.f32", np.float32).size
    widths = [Width(8, small_models), Width(512, small_models)]
    gpu_sweep.run_grid(can_run, records, RunOptions(models=small_models), tmp_path, widths)
    ((ids, models, batches, width),) = calls  # none at the reference width
    assert (ids[-2:], models, width) == (chosen[-2:], small_models, 512)
    assert batches == [b for b in gpu_sweep.BATCHES if b <= held] and batches


def test_a_grid_point_has_its_own_folder_and_stays_out_of_the_reference_sweeps(
    tmp_path: Path,
) -> None:
    from callbench.records.store import load_run, record_folder
    from callbench.report.sections import cpu_or_gpu
    from tests.test_report import driver, make_run

    plain = driver("python-numpy", [900.0] * 3, batch=256, sweep={"kind": "batch", "value": 256})
    grid = driver("python-numpy", [90_000.0] * 3, batch=256,
                  sweep={"kind": "batch", "value": 256, "width": 512})  # fmt: skip
    assert record_folder(tmp_path, grid) == tmp_path / "sweep-batch-w512" / "256"
    run = load_run(make_run(tmp_path, [plain, grid]))
    assert [r.median_ns for r in run.sweeps["batch"][256]] == [900.0]
    assert sorted(cpu_or_gpu.width_of(r) for r in run.records) == [8, 512]


def nvrtc_library() -> ctypes.CDLL:
    """The torch wheel's NVRTC (CUDA 13's or 12's layout), which runs without a GPU."""
    site = Path(torch.__file__).parents[1] / "nvidia"
    for path in (site / "cu13" / "lib" / "libnvrtc.so.13",
                 site / "cuda_nvrtc" / "lib" / "libnvrtc.so.12"):  # fmt: skip
        if path.is_file():
            return ctypes.CDLL(str(path))
    pytest.skip("no NVRTC in this torch wheel (a CPU-only torch)")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_the_kernel_source_compiles_for_a_gpu_with_nvrtc(arch: str) -> None:
    """What cpp-cuda-kernel and CuPy do at load, here without a device: NVRTC compiles
    mlp_forward.cu to a CUBIN holding both kernels under their C names."""
    nvrtc = nvrtc_library()
    program = ctypes.c_void_p()
    source = SOURCE.read_bytes()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(program), source, b"mlp_forward.cu", 0,
                                    None, None) == 0  # fmt: skip
    flags = (ctypes.c_char_p * 1)(f"--gpu-architecture={arch}".encode())
    status = nvrtc.nvrtcCompileProgram(program, 1, flags)
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(program, log)
    assert status == 0, log.value.decode()
    nvrtc.nvrtcGetCUBINSize(program, ctypes.byref(size))
    cubin = ctypes.create_string_buffer(size.value)
    assert nvrtc.nvrtcGetCUBIN(program, cubin) == 0
    nvrtc.nvrtcDestroyProgram(ctypes.byref(program))
    assert cubin.raw[:4] == b"\x7fELF"
    for kernel in (b"mlp_forward", b"mlp_forward_wide", b"mlp_floor"):
        assert kernel + b"\x00" in cubin.raw
    # The check has teeth: a source with a syntax error does not compile.
    broken = ctypes.c_void_p()
    nvrtc.nvrtcCreateProgram(ctypes.byref(broken), source.replace(b"float out", b"float out +"),
                             b"mlp_forward.cu", 0, None, None)  # fmt: skip
    assert nvrtc.nvrtcCompileProgram(broken, 1, flags) != 0
    nvrtc.nvrtcDestroyProgram(ctypes.byref(broken))
