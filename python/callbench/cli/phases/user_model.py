"""A model the user brought (``--onnx`` or ``--torch``): its own run, checked and prepared,
then every chosen driver that can run it; ``bench`` adds its sweeps, callers, serving and report
(the kernels and the ladder are about our MLP and the machine, not the model brought)."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from callbench.cli import common
from callbench.cli.builds import BUILT, build
from callbench.cli.ending import finish, stopped
from callbench.cli.phases import sweeps
from callbench.cli.phases.callers import many_callers
from callbench.cli.phases.measure import measure
from callbench.cli.phases.report import write_report
from callbench.cli.phases.serving import served_ways
from callbench.cli.phases.ways_of_the_cores import ways_of_the_cores
from callbench.errors import UsageError
from callbench.harness import console, machine
from callbench.harness.load import sweep_plan
from callbench.harness.options import RunOptions
from callbench.harness.run import THREAD_SWEEP_BATCH, check_call, check_models
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import left_out, user_onnx, user_torch
from callbench.records.phases import Phases
from callbench.records.store import new_run_dir
from callbench.registry import LANGUAGES, language_key
from callbench.roles import TORCH_PROGRAM


def brought(args: argparse.Namespace) -> Path | None:
    """The user's model, ``--onnx`` or ``--torch``; None for ours."""
    return args.onnx or getattr(args, "torch", None)


def user_specs(args: argparse.Namespace) -> tuple[list[DriverSpec], list[DriverSpec]]:
    """The chosen drivers a user's model runs through: those that load ONNX, and with
    ``--torch`` those that run the program itself (loading it in place of our artifact);
    then, with ``--torch``, the other chosen drivers (our MLP's alone), each made to be
    recorded as skipped saying why (``left_out``)."""
    flag = "--torch" if getattr(args, "torch", None) else "--onnx"
    if args.widths or getattr(args, "sweep", None):
        raise UsageError(f"{flag} runs the user's model as it is: no --widths or --sweep with it")
    if args.unwitnessed and args.onnx is None:
        raise UsageError("--unwitnessed goes with --onnx (a --torch program's reference is "
                         "its own eager module)")  # fmt: skip
    if brought(args) is None:
        raise UsageError("--inputs goes with --onnx or --torch (the samples for the user's model)")
    chosen = common.selection(args)
    specs = [s for s in chosen if s.artifact == art.ONNX]
    others: list[DriverSpec] = []
    if flag == "--torch":
        specs = runs_program(chosen)
        mlp_only = [s for s in chosen if s.artifact != art.ONNX and TORCH_PROGRAM not in s.roles]
        others = [replace(s, available=partial(left_out.reason, s.artifact)) for s in mlp_only]
    if not specs:
        what = "runs a torch.export program or loads ONNX" if flag == "--torch" else "loads ONNX"
        raise UsageError(f"{flag}: none of the chosen drivers {what}")
    return specs, others


def runs_program(chosen: Sequence[DriverSpec]) -> list[DriverSpec]:
    """The drivers of ``chosen`` that run a user's torch.export program, each loading the
    program itself in place of our state_dict (or the artifact made from it under our
    artifact's name), then those that load ONNX (its export)."""
    return [*(replace(s, artifact=user_torch.PROGRAM) if s.artifact == art.STATE_DICT
              else s for s in chosen if TORCH_PROGRAM in s.roles),
            *(s for s in chosen if s.artifact == art.ONNX)]  # fmt: skip


def user_model_run(args: argparse.Namespace, options: RunOptions, build_first: bool) -> int:
    """The user's model checked and prepared (nothing under results/ if it is rejected),
    then every chosen driver that can run it, verified against the reference (ONNX Runtime's
    unoptimised outputs for ``--onnx``, the program's eager module for ``--torch``);
    ``bench`` adds the report."""
    specs, others = user_specs(args)
    path = brought(args)
    assert path is not None  # user_specs said so
    phases = Phases()
    with phases.timed("export"):
        if args.onnx is None:
            batches = trace_batches(options) if args.command == "bench" else (options.batch,)
            folder = user_torch.prepare(path, args.inputs, {s.artifact for s in specs}, batches)
        else:
            folder = user_onnx.prepare(path, args.inputs, unwitnessed=args.unwitnessed)
    run_dir = None
    try:
        check_call(replace(options, models=folder), check_models(folder), path)
        if build_first:
            chosen = {language_key(s) for s in specs}
            build([lang for lang in LANGUAGES if lang in chosen and lang in BUILT],
                  phases=phases, chosen=specs)  # fmt: skip
        run_dir = new_run_dir(args.runs_dir, args.run_id)
        models = user_onnx.place(folder, run_dir)
        left = f" ({len(others)} of our MLP's alone left out, saying why)" if others else ""
        console.say(f"{path}: {len(specs)} drivers on it{left}, its artifacts in {models}")
        mine = replace(options, models=models)
        rows = [*specs, *others]
        done = measure(rows, mine, run_dir, phases)
        if args.command == "bench":
            batched = sweeps.of_user_model(rows, done, mine, run_dir, phases)
            with phases.timed("callers"):
                many = many_callers(rows, done, mine, run_dir, user_model=True)
                spent = ways_of_the_cores(rows, done, many, batched, mine, run_dir,
                                          user_model=True)  # fmt: skip
            if not args.no_serving:  # as far as its call's cost allows (ways_plan.py)
                with phases.timed("serving"):
                    served_ways(rows, done, [*many, *spent], mine, run_dir, args.p99_ns,
                                budget_min=args.serving_budget)  # fmt: skip
    except KeyboardInterrupt as stop:
        if run_dir is not None:
            phases.write(run_dir)
        return stopped(stop, run_dir)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    finish(done, run_dir)
    phases.write(run_dir)
    if args.command != "bench":
        return 0
    with phases.timed("report"):
        status = write_report(run_dir)
    phases.write(run_dir)
    print(phases.summary())
    return status


def trace_batches(options: RunOptions) -> tuple[int, ...]:
    """The batches a bench of a user's program calls, its own first: then the batch sweep's
    points, the thread sweep's batch and the cores' batching point (where the program's
    trace bakes its batch in, one is made for each, as far as the budget allows)."""
    return (options.batch, *sweep_plan.BATCHES, THREAD_SWEEP_BATCH, len(machine.usable_cpus()))
