"""The GPU rows' run on a machine with an NVIDIA GPU, as one prepared script.

A lent GPU machine reaches no package registry, so the project's pinned environment cannot
be installed there. This runs with a Python that has torch, CuPy, NumPy and ONNX Runtime,
this project's python/ on PYTHONPATH, and jsonschema added from wheels; every record states
the versions it ran with:

    PYTHONPATH=python python3 scripts/gpu_host_run.py --pack OUT/gpu-run.tgz

Three stages fill one run folder, each packed into --pack when it ends, so a run cut off
keeps what it finished:

1. the main group: the GPU rows, the Python CPU rows that such a Python can run, and the
   C++ floor when its binary was carried (it needs no library but libstdc++);
2. the GPU batch sweep (``gpu_sweep.BATCHES``): the GPU rows and each language's fastest
   verified CPU row of stage 1, as ``bench`` runs it;
3. per width of the family: the width sweep (at batch 1) of the GPU rows and the swept CPU
   rows of stage 1, then at a wider width the GPU batch sweep again (``run_grid``: the GPU
   rows and each language's fastest CPU row at that width), each row where its artifact
   was carried (a width's folder may hold only some files; family.json then lists those).

The CPU rows are the GPU host's own, which is what the report's "CPU or GPU" map compares
against. ``callbench report RUN`` then writes the report, here or on the GPU host.
"""

from __future__ import annotations

import argparse
import sys
import tarfile
from dataclasses import replace
from pathlib import Path

from callbench.cli import common
from callbench.harness import console, gpu_sweep
from callbench.harness.options import RunOptions
from callbench.harness.run import run_group, run_sweep, run_widths
from callbench.languages.spec import DriverSpec
from callbench.model.family import Width
from callbench.records.record import Record
from callbench.records.store import new_run_dir
from callbench.registry import DRIVERS, SWEEP_DRIVERS
from callbench.roles import GPU

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--pack", type=Path, help="a .tgz of the run folder, after each stage")
    parser.add_argument("--widths", default="all", help="as run --widths ('' for none)")
    parser.add_argument("--quick", action="store_true", help="bench --quick's protocol")
    args = parser.parse_args(argv)

    options = RunOptions(models=args.models)
    if args.quick:
        options = replace(options, rounds=3, round_time=0.02, warmup=1000)
    specs = [s for s in DRIVERS if GPU in s.roles or s.id in CPU_ROWS]
    sizes = common.widths(argparse.Namespace(widths=args.widths), args.models)
    run_dir = new_run_dir()
    done: list[Record] = run_group(specs, options, run_dir)
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
