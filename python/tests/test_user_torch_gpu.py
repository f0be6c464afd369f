"""A user's program (``--torch``) on the GPU rows, where there is no GPU: the four torch GPU
rows take it and are skipped saying why, the CuPy kernel (our MLP's own) is left out saying
why, the program moves to another device with the constants its graph makes, and the
AOTInductor-for-CUDA compile is asked for as it should be."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch

from callbench.model import tensors as tn
from tests import torch_programs as programs
from tests.conftest import HarnessRun
from tests.test_user_torch import GPU_TORCH_ROWS

no_device = pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is here")


class MadeInside(torch.nn.Module):
    """Adds a constant its graph makes (``torch.ones``, its device burnt into the graph)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2 + torch.ones(x.shape[1])


@pytest.fixture(scope="module")
def made_inside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inside") / "made_inside.pt2"
    batch = torch.export.Dim("batch")
    ep = torch.export.export(MadeInside(), (torch.zeros(2, 3),), dynamic_shapes=({0: batch},))
    torch.export.save(ep, path)
    return path


@no_device
def test_a_torch_run_lists_the_gpu_rows_skipped_and_the_cupy_kernel_left_out(
    tmp_path: Path, run_harness: Callable[..., HarnessRun]
) -> None:
    path = programs.norm_gelu_mlp(tmp_path / "norm_gelu_mlp.pt2")
    only = [a for d in [*GPU_TORCH_ROWS, "python-cupy-kernel"] for a in ("--only", d)]
    run = run_harness("--torch", str(path), *only, "--rounds", "1", "--warmup", "5")
    assert run.returncode == 0, run.stderr
    for driver_id in GPU_TORCH_ROWS:
        record = run.records[driver_id]
        assert (record.status, record.error) == (
            "skipped",
            "no CUDA device (torch.cuda.is_available() is False)",
        ), driver_id
    cupy = run.records["python-cupy-kernel"]
    assert cupy.status == "skipped"
    assert (cupy.error or "").startswith("runs our MLP only: computes our MLP from its weights")
    assert run.records["python-cuda-graph"].artifact == "program.pt2"


def test_a_program_moves_to_another_device_with_the_constants_its_graph_makes(
    made_inside: Path,
) -> None:
    """``meta`` stands in for the GPU: the same pass. Moving the module alone (``.to``) would
    leave the graph's ``torch.ones`` on the CPU."""
    from callbench.drivers.cuda_model import program_on

    moved = program_on(made_inside, "meta")
    got = moved(torch.zeros(4, 3, device="meta"))
    assert (got.device.type, tuple(got.shape)) == ("meta", (4, 3))
    on_cpu = program_on(made_inside, "cpu")
    assert on_cpu(torch.zeros(1, 3)).tolist() == [[1.0, 1.0, 1.0]]


def test_the_aoti_cuda_package_is_compiled_on_the_device_with_the_signature(
    made_inside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The call to ``aoti_compile_and_package``: a copy of the program on the device (its
    weights, its graph's constants and its examples), the package's name, the signature in
    its metadata, none of the CPU package's options; the program given stays on the CPU."""
    import torch._inductor

    from callbench.model import exported_programs as deploy
    from callbench.model.user_torch_archive import load

    asked: dict[str, Any] = {}

    def compile_and_package(program: Any, package_path: str, inductor_configs: Any) -> str:
        asked.update(program=program, path=package_path, configs=inductor_configs)
        Path(package_path).write_bytes(b"package")
        return package_path

    monkeypatch.setattr(torch._inductor, "aoti_compile_and_package", compile_and_package)
    ep = load(made_inside)
    signature = tn.Signature(
        (tn.Tensor("x", "float32", (3,), "in.f32"),),
        (tn.Tensor("y", "float32", (3,), "out.f32"),),
    )
    assert deploy.cuda_package_of(ep, signature, device="meta") == b"package"
    program = asked["program"]
    assert program is not ep
    devices = {str(n.meta["val"].device) for n in program.graph.nodes
               if isinstance(n.meta.get("val"), torch.Tensor)}  # fmt: skip
    assert devices == {"meta"}
    ((args, _),) = [program.example_inputs]
    assert all(a.device.type == "meta" for a in args)
    assert Path(asked["path"]).name == deploy.AOTI_CUDA_PACKAGE
    assert asked["configs"] == {
        "aot_inductor.metadata": {
            "callbench.input.0": "x float32 3",
            "callbench.output.0": "y float32 3",
        }
    }
    assert not set(deploy.AOTI_CONFIG) & set(asked["configs"])
    still = {str(n.meta["val"].device) for n in ep.graph.nodes
             if isinstance(n.meta.get("val"), torch.Tensor)}  # fmt: skip
    assert still == {"cpu"}


def test_the_gpu_sweep_of_a_program_takes_each_row_as_far_as_its_call_allows(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GPU rows that ran verified and each language's fastest CPU row, each at the GPU
    batches the inputs hold and its own batch-1 call affords; rows together at a point."""
    from dataclasses import replace

    import numpy as np

    from callbench.harness.load import gpu_sweep, sweep_plan
    from callbench.harness.options import RunOptions
    from callbench.registry import DRIVERS
    from callbench.roles import GPU
    from tests.test_report import driver

    can_run = [replace(d, available=lambda: None) if GPU in d.roles else d for d in DRIVERS]
    records = [
        driver("python-cuda-graph", [65_000.0] * 3),
        driver("python-eager-cuda", [300_000.0] * 3),
        driver("python-aoti-cuda", [60_000.0] * 3, status="failed"),
        driver("python-onnxruntime", [50_000.0] * 3),
        driver("python-eager", [111_000.0] * 3),  # slower than Python's fastest: not swept
        driver("cpp-handwritten", [1e9] * 3, language="C++"),  # 1 s a call: batch 1 only
    ]
    calls: list[tuple[int, list[str]]] = []

    def fake_sweep(kind, specs, options, run_dir, values):  # type: ignore[no-untyped-def]
        assert kind == "batch"
        (batch,) = values
        calls.append((batch, [s.id for s in specs]))
        return [driver(specs[0].id, [1.0] * 3, batch=batch)]

    monkeypatch.setattr(gpu_sweep, "run_sweep", fake_sweep)
    held = np.fromfile(small_models / "reference.f32", np.float32).size
    options = RunOptions(models=small_models)
    done = gpu_sweep.of_program(can_run, records, options, tmp_path)
    fits = [b for b in gpu_sweep.BATCHES if b <= held]
    assert [b for b, _ in calls] == fits and len(done) == len(fits)
    assert calls[0] == (1, ["python-eager-cuda", "python-cuda-graph", "python-onnxruntime",
                            "cpp-handwritten"])  # fmt: skip
    onnxruntime_fits = int(sweep_plan.CALL_BUDGET_S / 50e-6)
    for batch, ids in calls[1:]:
        cpu = ["python-onnxruntime"] if batch <= onnxruntime_fits else []
        assert ids == ["python-eager-cuda", "python-cuda-graph", *cpu], batch
    # No GPU row verified: no sweep at all.
    calls.clear()
    cpu_only = [r for r in records if r.id in ("python-onnxruntime", "cpp-handwritten")]
    assert gpu_sweep.of_program(can_run, cpu_only, options, tmp_path) == [] and calls == []


def test_the_gpu_host_runs_a_program_on_the_gpu_rows_and_the_python_rows_it_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util
    import sys

    from callbench.paths import REPO_ROOT

    monkeypatch.syspath_prepend(str(REPO_ROOT / "scripts"))
    sys.modules.pop("gpu_host_run", None)
    import gpu_host_run

    rows = {s.id: s for s in gpu_host_run.program_rows()}
    assert set(GPU_TORCH_ROWS) <= set(rows) and "python-cupy-kernel" not in rows
    assert rows["python-eager-cuda"].artifact == rows["python-eager"].artifact == "program.pt2"
    assert rows["python-aoti-cuda"].artifact == "mlp_cuda.pt2"
    assert {"python-aoti", "python-onnxruntime", "python-torchscript"} <= set(rows)
    # C++'s GPU row of the program is built there; its CPU rows are not.
    assert [i for i in rows if not i.startswith(("python-", "independent-python-"))] == [
        "cpp-aoti-cuda"
    ]
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name: None if name == "onnxruntime" else real(name))  # fmt: skip
    without = {s.id for s in gpu_host_run.program_rows()}
    assert "python-onnxruntime" not in without and "python-eager-cuda" in without


def test_a_models_folder_from_a_cpu_host_gets_the_cuda_package_entered(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a GPU host (the compile faked: no device here), the package is written and entered
    in the manifest, so the folder verifies with it; the state_dict is what it compiles."""
    import json
    import shutil

    from callbench.model import artifacts as art
    from callbench.model import cuda_package
    from callbench.model import exported_programs as deploy

    models = tmp_path / "models"
    shutil.copytree(small_models, models)
    compiled: list[int] = []

    def fake_package(model: torch.nn.Module) -> deploy.Artifact:
        compiled.append(sum(p.numel() for p in model.parameters()))
        return deploy.Artifact(b"a package", {"format": "AOTInductor package (CUDA)"}, 1.5)

    monkeypatch.setattr(deploy, "aoti_cuda_package", fake_package)
    cuda_package.add_to(models)
    assert compiled == [2 * 8 + 8 + 8 * 8 + 8 + 8 + 1]  # our 2-8-8-1 MLP
    art.verify(models, [deploy.AOTI_CUDA_PACKAGE])
    entry = art.read_manifest(models)["files"][deploy.AOTI_CUDA_PACKAGE]
    assert (entry["bytes"], entry["format"]) == (9, "AOTInductor package (CUDA)")
    seconds = json.loads((models / art.EXPORT_SECONDS).read_text())
    assert seconds[deploy.AOTI_CUDA_PACKAGE] == 1.5


def test_the_gpu_host_builds_its_cpp_rows_and_keeps_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The C++ GPU rows and the floor, by build_cpp.py's --target (no unit tests, no other
    driver), the log beside the records (the build itself faked: it is ctest's)."""
    import subprocess
    import sys

    from callbench.paths import REPO_ROOT

    monkeypatch.syspath_prepend(str(REPO_ROOT / "scripts"))
    sys.modules.pop("gpu_host_run", None)
    import gpu_host_run

    asked: list[list[str]] = []

    def fake_run(argv: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        asked.append(argv)
        return subprocess.CompletedProcess(argv, 1, "cmake output\n", "ninja: error\n")

    monkeypatch.setattr(subprocess, "run", fake_run)
    gpu_host_run.build_cpp_rows(tmp_path)
    ((interpreter, script, cuda, on, *targets),) = asked
    assert interpreter == sys.executable
    assert Path(script).name == "build_cpp.py" and (cuda, on) == ("--cuda", "on")
    assert targets == ["--target", "cpp-cuda-floor", "--target", "cpp-cuda-kernel",
                       "--target", "cpp-cuda-graph", "--target", "cpp-aoti-cuda",
                       "--target", "cpp-handwritten"]  # fmt: skip
    assert (tmp_path / "build-cpp.log").read_text() == "cmake output\nninja: error\n"
    from callbench.registry import lookup

    assert all(lookup(t) for t in gpu_host_run.CPP_TARGETS)


def test_the_gpu_host_sweeps_the_python_rows_callers_on_its_own_cores(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--callers`` on a 16-core host (faked: the sweep's groups recorded, not run): the
    Python rows of stage 1, each runtime's fastest with its twin, at 1 to 32 callers in
    threads and 2 to 32 in processes, half the rounds a point."""
    import sys

    from callbench.cli.phases import callers
    from callbench.harness import machine
    from callbench.harness.options import RunOptions
    from callbench.paths import REPO_ROOT
    from callbench.registry import DRIVERS, lookup
    from callbench.roles import GPU
    from tests.test_report import driver

    monkeypatch.syspath_prepend(str(REPO_ROOT / "scripts"))
    sys.modules.pop("gpu_host_run", None)
    import gpu_host_run

    asked: list[tuple[str, list[str], list[int], int]] = []

    def fake_sweep(kind: str, specs: Any, options: RunOptions, run_dir: Path,
                   values: Any = None, **_: Any) -> list[Any]:  # fmt: skip
        asked.append((kind, [s.id for s in specs], list(values), options.rounds))
        return []

    monkeypatch.setattr(machine, "usable_cpus", lambda: list(range(16)))
    monkeypatch.setattr(callers, "run_sweep", fake_sweep)
    specs = [s for s in DRIVERS if GPU in s.roles or s.id in gpu_host_run.CPU_ROWS]
    done = [driver(i, [us * 1000] * 3, runtime=lookup(i).runtime)
            for i, us in (("python-onnxruntime", 6.0), ("python-onnxruntime-iobinding", 5.0),
                          ("python-eager-inference", 20.0), ("cpp-handwritten", 0.01))]  # fmt: skip
    gpu_host_run.callers_stage(specs, done, RunOptions(models=tmp_path), tmp_path)
    rows = ["python-eager-inference", "python-onnxruntime-iobinding",
            "python-onnxruntime-iobinding-sessions"]  # fmt: skip
    threads = [(n, ids, r) for kind, ids, (n,), r in asked if kind == "callers"]
    assert threads == [(n, rows, 11) for n in (1, 2, 4, 8, 16, 32)]
    processes = [n for kind, ids, (n,), _ in asked if kind == "processes"]
    assert processes == [2, 4, 8, 16, 32]
