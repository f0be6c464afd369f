"""The GPU rows' run on a machine with an NVIDIA GPU, as one prepared script.

A lent GPU machine reaches no package registry, so the project's pinned environment cannot
be installed there. This runs with a Python that has torch, CuPy, NumPy and ONNX Runtime,
this project's python/ on PYTHONPATH, and jsonschema added from wheels; every record states
the versions it ran with:

    PYTHONPATH=python python3 scripts/gpu_host_run.py --pack OUT/gpu-run.tgz

Three stages fill one run folder, each packed into --pack when it ends, so a run cut off
keeps what it finished:

1. the main group: the GPU rows (the C++ ones built here first, with the floor:
   ``build_cpp.py --target``, its log kept as ``build-cpp.log``; ``--no-build`` runs what was
   carried), the Python CPU rows that such a Python can run, and the C++ floor;
2. the GPU batch sweep (``gpu_sweep.BATCHES``): the GPU rows and each language's fastest
   verified CPU row of stage 1, as ``bench`` runs it;
3. per width of the family: the width sweep (at batch 1) of the GPU rows and the swept CPU
   rows of stage 1, then at a wider width the GPU batch sweep again (``run_grid``: the GPU
   rows and each language's fastest CPU row at that width), each row where its artifact
   was carried (a width's folder may hold only some files; family.json then lists those).

With ``--callers`` (off by default: the GPU host's time is short), right after stage 1 the
Python CPU rows' callers sweep on the host's own cores (``callers_stage``: 1, the powers of
two below its cores, its cores and twice them, in threads and in processes, each runtime's
fastest row as ``bench`` plans it), packed as it ends: the report sets it beside this
machine's, each host's under its own name.

The CPU rows are the GPU host's own, which is what the report's "CPU or GPU" map compares
against. ``callbench report RUN`` then writes the report, here or on the GPU host.

With ``--torch model.pt2 [--inputs FILE.npz]`` it runs the user's program instead, in two
stages: the program's artifacts made (each timed; the AOTInductor package for CUDA among
them), then (1) the GPU rows (``cpp-aoti-cuda`` built here first, as above) and every
Python CPU row that runs the program and whose runtime this Python has (eager,
TorchScript, AOTInductor and ExecuTorch on the CPU, ONNX Runtime and OpenVINO on its ONNX
export), and (2) the GPU batch sweep at the batches the
model's inputs and each row's call allow (``gpu_sweep.of_program``).
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tarfile
from dataclasses import replace
from pathlib import Path

from callbench.cli import common
from callbench.cli.phases.callers import many_callers
from callbench.cli.phases.user_model import runs_program
from callbench.errors import UsageError
from callbench.harness import console
from callbench.harness.load import gpu_sweep
from callbench.harness.options import RunOptions
from callbench.harness.run import run_group, run_sweep, run_widths
from callbench.languages.spec import DriverSpec
from callbench.model import cuda_package, user_onnx, user_torch
from callbench.model.family import Width
from callbench.records.record import Record
from callbench.records.store import new_run_dir
from callbench.registry import DRIVERS, SWEEP_DRIVERS, language_key, lookup
from callbench.roles import CALLERS_ONLY, GPU

# The Python CPU rows a Python with torch, NumPy, ONNX Runtime and numba runs, and the floor.
# JAX is left out: with a CUDA plugin installed it would run on the GPU under a CPU row's name.
CPU_ROWS = (
    "python-eager",
    "python-eager-inference",
    "python-torchscript",
    "python-torchscript-frozen",
    "python-onnxruntime",
    "python-onnxruntime-iobinding",
    "python-numpy",
    "python-numba",
    "cpp-handwritten",
)
# The module each Python row of a user's program imports, by its runtime (torch otherwise).
RUNTIME_MODULES = {"onnxruntime": "onnxruntime", "openvino": "openvino",
                   "executorch": "executorch"}  # fmt: skip
# The width sweep's calls are slow at width 2048 (milliseconds for a CPU row, and for the
# CuPy kernel's one thread per sample): a short warm-up keeps the stage to a minute or two.
WIDTH_WARMUP = 200


def pack(run_dir: Path, into: Path | None) -> None:
    if into is None:
        return
    into.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(into, "w:gz") as tar:
        tar.add(run_dir, arcname=run_dir.name)
    print(f"packed {run_dir.name} into {into}", flush=True)


def carried(specs: list[DriverSpec], width: Width) -> list[DriverSpec]:
    """The rows whose artifact the width's folder holds: a row whose artifact was not
    carried is not run there (the folder's family.json entry lists only what it holds)."""
    here = [s for s in specs if (width.models / s.artifact).is_file()]
    for s in specs:
        if s not in here:
            print(f"width {width.hidden}: {s.id} not run ({s.artifact} not carried)")
    return here


# The C++ rows built on the GPU host (its own toolchain and torch wheel): the CUDA rows and
# the floor; only these targets, so a host without ONNX Runtime's headers builds them too.
CPP_TARGETS = ("cpp-cuda-floor", "cpp-cuda-kernel", "cpp-cuda-graph", "cpp-aoti-cuda",
               "cpp-handwritten")  # fmt: skip


def build_cpp_rows(run_dir: Path) -> None:
    """``scripts/build_cpp.py --target ...`` for CPP_TARGETS, its log kept with the run; a row
    that does not build is then recorded as skipped, saying its binary is missing."""
    script = Path(__file__).with_name("build_cpp.py")
    targets = [a for t in CPP_TARGETS for a in ("--target", t)]
    done = subprocess.run([sys.executable, str(script), "--cuda", "on", *targets],
                          capture_output=True, text=True, check=False)  # fmt: skip
    (run_dir / "build-cpp.log").write_text(done.stdout + done.stderr)
    state = "built" if done.returncode == 0 else f"not built (exit {done.returncode})"
    print(f"C++ rows {', '.join(CPP_TARGETS)}: {state}; log in {run_dir / 'build-cpp.log'}")


def has_runtime(spec: DriverSpec) -> bool:
    return importlib.util.find_spec(RUNTIME_MODULES.get(spec.runtime, "torch")) is not None


def program_rows() -> list[DriverSpec]:
    """The rows of a user's program on this host: the GPU rows (C++'s built here), and each
    Python CPU row that runs the program and whose runtime this Python has (the others are
    said, not run)."""
    rows = runs_program(DRIVERS)
    python = [s for s in rows if language_key(s) == "python"]
    for s in python:
        if not has_runtime(s):
            print(f"{s.id} not run: no {RUNTIME_MODULES.get(s.runtime, 'torch')} here")
    cpp_gpu = [s for s in rows if language_key(s) == "cpp" and GPU in s.roles]
    return [*(s for s in python if has_runtime(s)), *cpp_gpu]


def program_run(args: argparse.Namespace, options: RunOptions) -> int:
    """The user's program: its artifacts, the rows (stage 1), the GPU batch sweep (stage 2)."""
    specs = program_rows()
    folder = user_torch.prepare(args.torch, args.inputs, {s.artifact for s in specs})
    run_dir = new_run_dir()
    try:
        options = replace(options, models=user_onnx.place(folder, run_dir))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if not args.no_build:
        build_cpp_rows(run_dir)
    done = run_group(specs, options, run_dir)
    pack(run_dir, args.pack)
    if not gpu_sweep.of_program(specs, done, options, run_dir):
        print("no GPU row ran verified: no GPU sweep", file=sys.stderr)
        return 1
    pack(run_dir, args.pack)
    print(console.summary(done))
    print(f"\nrecords: {run_dir}")
    return 0


def callers_stage(specs: list[DriverSpec], done: list[Record], options: RunOptions,
                  run_dir: Path) -> list[Record]:  # fmt: skip
    """The callers sweep of the Python CPU rows of stage 1 (``done``) on this host's cores,
    with their callers-only twins (a model per caller)."""
    python = [s for s in DRIVERS if language_key(s) == "python" and GPU not in s.roles
              and (s in specs or CALLERS_ONLY in s.roles)]  # fmt: skip
    return many_callers(python, done, options, run_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--pack", type=Path, help="a .tgz of the run folder, after each stage")
    parser.add_argument("--widths", default="all", help="as run --widths ('' for none)")
    parser.add_argument("--quick", action="store_true", help="bench --quick's protocol")
    parser.add_argument("--torch", type=Path, help="a user's torch.export program (.pt2)")
    parser.add_argument("--inputs", type=Path, help="its samples (.npz), as run --inputs")
    parser.add_argument("--no-build", action="store_true", help="run the C++ rows as built")
    parser.add_argument("--callers", action="store_true",
                        help="the Python rows' callers sweep on this host's cores")  # fmt: skip
    args = parser.parse_args(argv)

    options = RunOptions(models=args.models)
    if args.quick:
        options = replace(options, rounds=3, round_time=0.02, warmup=1000)
    if args.inputs is not None and args.torch is None:
        parser.error("--inputs goes with --torch")
    if args.torch is not None:
        try:
            return program_run(args, options)
        except UsageError as exc:  # a program or samples refused: one line, nothing run
            print(f"gpu_host_run: {exc}", file=sys.stderr)
            return 2
    specs = [s for s in DRIVERS if GPU in s.roles or s.id in CPU_ROWS]
    aoti_cuda = lookup("python-aoti-cuda")
    if aoti_cuda.available() is None and not (args.models / aoti_cuda.artifact).is_file():
        cuda_package.add_to(args.models)  # models/ carried from a CPU host has none
    sizes = common.widths(argparse.Namespace(widths=args.widths), args.models)
    run_dir = new_run_dir()
    if not args.no_build:
        build_cpp_rows(run_dir)
    done: list[Record] = run_group(specs, options, run_dir)
    pack(run_dir, args.pack)
    if args.callers:
        callers_stage(specs, done, options, run_dir)
        pack(run_dir, args.pack)

    on_gpu = gpu_sweep.drivers(specs, done)
    if not on_gpu:
        print("no GPU row can run here: no sweep", file=sys.stderr)
        return 1
    run_sweep("batch", on_gpu, options, run_dir, gpu_sweep.BATCHES)
    pack(run_dir, args.pack)

    wide = [s for s in specs if gpu_sweep.runs_here(s) or s.id in SWEEP_DRIVERS]
    narrow = replace(options, warmup=WIDTH_WARMUP)
    for width in sizes:
        here = carried(wide, width)
        at_width = run_widths(here, narrow, run_dir, [width])
        pack(run_dir, args.pack)
        gpu_sweep.run_grid(carried(specs, width), at_width, narrow, run_dir, [width])
        pack(run_dir, args.pack)
    print(console.summary(done))
    print(f"\nrecords: {run_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
