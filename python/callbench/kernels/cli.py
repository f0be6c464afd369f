"""The work behind ``python -m callbench.kernels`` once threads are set (see ``__main__``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from callbench.errors import RunError
from callbench.kernels import batchdot, cuda, elementwise
from callbench.kernels.env import kernel_env
from callbench.kernels.kernel import Item, Wanted
from callbench.kernels.runner import run_all
from callbench.kernels.threads import set_runtime_threads
from callbench.records.record import Record
from callbench.records.store import ENV_FILE, RUNS, new_run_dir, write_json

PROG = "callbench.kernels"


def selector(only: list[str] | None) -> Wanted:
    """Ids equal to, or starting with, a prefix ("exp" is read as "kernel-exp")."""
    if not only:
        return lambda _: True
    prefixes = tuple(p if p.startswith("kernel-") else f"kernel-{p}" for p in only)
    return lambda kernel: any(kernel == p or kernel.startswith(p + "-") for p in prefixes)


def all_kernels(size: int, wanted: Wanted) -> Iterator[Item]:
    yield from elementwise.kernels(size, wanted)
    yield from batchdot.kernels(wanted=wanted)
    yield from cuda.kernels(size, wanted)


def _row(record: Record) -> str:
    if record.ok:
        ms = f"{record.median_ns / 1e6:12.4f}"
        err = f"{record.max_abs_error:.2g}"
    else:
        ms, err = f"{'-':>12}", "-"
    why = "" if record.error is None else f"  {record.error}"
    return f"{record.id:<44}{ms}  {err:>8}  {record.status}{why}"


def _run_dir(args: argparse.Namespace) -> Path:
    if args.run_dir is not None:
        return new_run_dir(args.run_dir.parent, args.run_dir.name)
    return new_run_dir(args.runs_dir if args.runs_dir is not None else RUNS)


def run(args: argparse.Namespace) -> int:
    size = args.size or (elementwise.QUICK_SIZE if args.quick else elementwise.SEED_SIZE)
    wanted = selector(args.only)
    # Ids are known without building anything: check --only before any work.
    if args.only and not any(wanted(i) for i in known_ids()):
        print(f"{PROG}: usage: --only {' '.join(args.only)} matches no kernel", file=sys.stderr)
        return 2
    set_runtime_threads(args.threads)
    try:
        run_dir = _run_dir(args)
        env_path = run_dir / ENV_FILE
        if not env_path.exists():  # a driver run's richer env.json wins
            write_json(env_path, kernel_env(args.threads))
    except RunError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    print(f"{PROG}: {size} x {size} elementwise, {args.threads} thread(s), into {run_dir}")
    print(f"{'kernel':<44}{'median ms':>12}  {'max err':>8}  status")
    try:
        results = run_all(
            all_kernels(size, wanted),
            threads=args.threads,
            repeats=args.repeats,
            min_repeat_s=args.min_repeat_time,
            run_dir=run_dir,
            progress=lambda r: print(_row(r), flush=True),
        )
    except MemoryError:
        # Building the inputs and references (N x N float64 each) is what can run out.
        print(
            f"{PROG}: error: {size} x {size}: out of memory (try --quick or --size)",
            file=sys.stderr,
        )
        return 1
    except RunError as exc:  # the results folder cannot be written, or a record is invalid
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    failed = sum(r.status == "failed" for r in results)
    print(f"{PROG}: {len(results)} records ({failed} failed) in {run_dir}")
    return 0


def known_ids() -> list[str]:
    """Every kernel id, from the families' tables (no arrays built)."""
    return elementwise.ids() + batchdot.ids() + cuda.ids()
