"""``callbench run`` (the harness) and ``callbench bench`` (the whole pipeline as one run)."""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from callbench.cli import common
from callbench.cli.builds import BUILT, build
from callbench.errors import DataError, UsageError, named_first_line
from callbench.harness import (
    callers_plan,
    console,
    cores_plan,
    gpu_sweep,
    machine,
    signals,
    sweep_plan,
)
from callbench.harness.options import RunOptions
from callbench.harness.run import (
    THREAD_SWEEP_BATCH,
    check_call,
    check_models,
    run_group,
    run_sweep,
    run_widths,
)
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.model import left_out, user_onnx, user_torch
from callbench.model.export_options import ExportOptions, run_export
from callbench.model.family import Width
from callbench.records.phases import Phases
from callbench.records.record import Record
from callbench.records.store import new_run_dir
from callbench.registry import LANGUAGES, SWEEP_DRIVERS, language_key
from callbench.roles import GPU, TORCH_PROGRAM

# --quick: the whole pipeline at a small size, as a smoke test.
QUICK = {"rounds": 3, "round_time": 0.02, "warmup": 1000}
QUICK_SWEEPS = {"batch": [1, 1000, 1_000_000], "threads": [1, 2]}
QUICK_CALLERS = [1, 2]


def _finish(records: list[Record], run_dir: Path) -> None:
    print()
    print(console.summary(records))
    print(f"\nrecords: {run_dir}")


def stopped(stop: KeyboardInterrupt, run_dir: Path | None) -> int:
    """One line for a run ended by Ctrl-C or a signal; the exit status says which."""
    name = getattr(stop, "name", "SIGINT")
    where = f"; records kept in {run_dir}" if run_dir is not None else ""
    print(f"callbench: stopped by {name}{where}", file=sys.stderr)
    return 128 + int(getattr(signal.Signals, name, signal.SIGINT))


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
        with phases.timed("measure"):
            done = run_group([*specs, *others], mine, run_dir)
        if args.command == "bench":
            user_sweeps([*specs, *others], done, mine, run_dir, phases)
    except KeyboardInterrupt as stop:
        if run_dir is not None:
            phases.write(run_dir)
        return stopped(stop, run_dir)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _finish(done, run_dir)
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


def user_sweeps(
    specs: Sequence[DriverSpec], done: Sequence[Record], options: RunOptions, run_dir: Path,
    phases: Phases,
) -> None:  # fmt: skip
    """The batch and thread sweeps of a user's model: each runtime's fastest CPU row, as far
    as its own call allows (sweep_plan), each skipped point said once; where a GPU row ran,
    first the GPU batch sweep (gpu_sweep.of_program). Then the callers sweep, as far as
    the call allows (callers_plan.affordable)."""
    expected = check_models(options.models)
    by_id = {s.id: s for s in specs}
    batched: list[Record] = []
    with phases.timed("sweeps"):
        gpu_sweep.of_program(specs, done, options, run_dir)
        for row in sweep_plan.sweepers([r for r in done if GPU not in by_id[r.id].roles]):
            planned = sweep_plan.plan([row], expected.samples, expected.signature.fixed_batch)
            for reason in planned.skipped:
                console.say(f"{row.id}: sweep point skipped: {reason}")
            spec = [by_id[row.id]]
            batched += row_sweeps(row, spec, planned, options, run_dir)
    with phases.timed("callers"):
        many = many_callers(specs, done, options, run_dir, user_model=True)
        ways_of_the_cores(specs, done, many, batched, options, run_dir, user_model=True)


def row_sweeps(
    row: Record, spec: Sequence[DriverSpec], planned: sweep_plan.SweepPlan,
    options: RunOptions, run_dir: Path,
) -> list[Record]:  # fmt: skip
    """One row's batch points, each one's time setting the next one's estimate (a point past
    the budget at the dearest sample so far ends them, said once), then its thread sweep at
    the batch that estimate allows; each point's rounds within its budget. The batch
    points' records."""
    seen = sweep_plan.Measured(row.median_ns / 1e9 / row.batch)
    batched: list[Record] = []
    for b in planned.batches:
        if not seen.fits(b):
            console.say(f"{row.id}: sweep point skipped: batch {b:,}: a call would take about "
                        f"{seen.call_s(b):.3g} s at the dearest sample timed so far, past the "
                        f"{sweep_plan.CALL_BUDGET_S:g} s budget")  # fmt: skip
            break
        rounds = sweep_plan.rounds_within(seen.call_s(b), options.rounds)
        swept = run_sweep("batch", spec, replace(options, rounds=rounds), run_dir, [b])
        seen.saw(swept)
        batched += swept
    at = seen.thread_batch(planned.thread_batch)
    rounds = sweep_plan.rounds_within(seen.call_s(at), options.rounds)
    run_sweep("threads", spec, replace(options, rounds=rounds), run_dir, thread_batch=at)
    return batched


def run(args: argparse.Namespace) -> int:
    """The harness: the chosen drivers (or one sweep of them) into a run folder."""
    signals.install()
    options = common.protocol_options(args)
    if brought(args) is not None or args.inputs is not None or args.unwitnessed:
        return user_model_run(args, options, args.build)
    specs = common.selection(args)
    given = [flag for flag, on in (("--widths", args.widths), ("--sweep", args.sweep),
                                   ("--callers", args.caller_counts),
                                   ("--processes", args.process_counts)) if on]  # fmt: skip
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} are each a sweep of their own: give one")
    sizes = common.widths(args, options.models)
    run_dir = None
    phases = Phases()
    try:
        if args.build:
            build(sorted({language_key(s) for s in specs}), phases=phases, chosen=specs)
        run_dir = new_run_dir(args.runs_dir, args.run_id)
        if sizes:
            with phases.timed("widths"):
                done = run_widths(specs, options, run_dir, sizes)
        elif args.sweep:
            with phases.timed("sweeps"):
                done = run_sweep(args.sweep, specs, options, run_dir, args.sweep_values)
        elif args.caller_counts:
            with phases.timed("sweeps"):
                done = run_sweep("callers", specs, options, run_dir, args.caller_counts)
        elif args.process_counts:
            with phases.timed("sweeps"):
                done = run_sweep("processes", specs, options, run_dir, args.process_counts)
        else:
            with phases.timed("measure"):
                done = run_group(specs, options, run_dir)
    except KeyboardInterrupt as stop:
        if run_dir is not None:
            phases.write(run_dir)
        return stopped(stop, run_dir)
    _finish(done, run_dir)
    phases.write(run_dir)
    print(phases.summary())
    return 0


def ensure_models(models: Path, needed: Iterable[str] = ()) -> None:
    """Export when models/ is missing, does not match its manifest, lacks an artifact
    in ``needed`` (one a newer exporter writes, for a driver added since), or was written
    before contract 3 (no tensors table, or an AOTInductor package without its signature)."""
    try:
        manifest = art.read_manifest(models)
        art.verify(models, sorted(set(manifest["files"]) | set(needed)))
        art.signature(models)
        package = models / deploy.AOTI_PACKAGE
        if package.exists() and not deploy.carries_signature(package):
            raise DataError(package, "has no signature in its metadata")
    except DataError as exc:
        print(f"callbench: {exc}: exporting", flush=True)
        if run_export(ExportOptions(out=models)) != 0:
            raise
    return None


def bench(args: argparse.Namespace) -> int:
    """Export if needed, build, every driver, the sweeps, the kernels, the report: one run,
    each phase timed into its env.json and the whole said in one line at the end."""
    signals.install()
    defaults = QUICK if args.quick else {}
    options = common.protocol_options(args, **defaults)
    if brought(args) is not None or args.inputs is not None or args.unwitnessed:
        # A user's model: its drivers and its report; the sweeps, kernels and ladder
        # are about our MLP and the machine, not about the model brought.
        return user_model_run(args, options, not args.no_build)
    specs = common.selection(args)
    phases = Phases()
    with phases.timed("export"):
        # A row that cannot run here (a GPU row on a CPU host) asks for no artifact.
        ensure_models(options.models, {s.artifact for s in specs if s.available() is None})
    # Checked before anything runs: a width not exported is a usage error, not a lost hour.
    sizes = common.widths(args, options.models)
    languages = sorted({language_key(s) for s in specs})
    if not args.no_build:
        chose = [lang for lang in LANGUAGES if lang in languages and lang in BUILT]
        build(chose, phases=phases, chosen=specs)
    run_dir = new_run_dir(args.runs_dir, args.run_id)
    try:
        done = measure(args, specs, options, run_dir, sizes, phases)
    except KeyboardInterrupt as stop:
        phases.write(run_dir)
        return stopped(stop, run_dir)
    _finish(done, run_dir)
    from callbench.kernels.launch import KernelOptions, run_kernels

    quick = args.quick or options.calls is None
    with phases.timed("kernels"):
        status = run_kernels(KernelOptions(run_dir, quick, options.threads))
    if status != 0:
        print("callbench: the kernels failed; the report goes on without them", file=sys.stderr)
    if args.only is None and (args.language is None or "python" in args.language):
        with phases.timed("ladder"):
            ladder(args, options, run_dir)
    phases.write(run_dir)  # the report reads them
    with phases.timed("report"):
        status = write_report(run_dir)
    phases.write(run_dir)
    print(phases.summary())
    return status


def measure(
    args: argparse.Namespace,
    specs: Sequence[DriverSpec],
    options: RunOptions,
    run_dir: Path,
    sizes: Sequence[Width],
    phases: Phases,
) -> list[Record]:
    """bench's measuring: every chosen driver, then the sweeps, then the widths."""
    with phases.timed("measure"):
        done = run_group(specs, options, run_dir)
    batched: list[Record] = []
    with phases.timed("sweeps"):
        on_gpu = gpu_sweep.drivers(specs, done)
        if on_gpu:
            run_sweep("batch", on_gpu, options, run_dir, gpu_sweep.BATCHES)
        sweepers = [s for s in specs if s.id in SWEEP_DRIVERS]
        sweeps = QUICK_SWEEPS if args.quick else {"batch": None, "threads": None}
        for kind, values in sweeps.items():
            if sweepers:
                swept = run_sweep(kind, sweepers, options, run_dir, values)
                batched += swept if kind == "batch" else []
    with phases.timed("callers"):
        many = many_callers(specs, done, options, run_dir, QUICK_CALLERS if args.quick else None)
        ways_of_the_cores(specs, done, many, batched, options, run_dir)
    if sizes:  # with --only, every chosen driver; else each runtime's fastest and the GPU's
        with phases.timed("widths"):
            widened = [*sweepers, *(s for s in on_gpu if gpu_sweep.runs_here(s))]
            wide = run_widths(specs if args.only else widened, options, run_dir, sizes)
            if on_gpu:  # the GPU batch sweep again at each wider width
                gpu_sweep.run_grid(specs, wide, options, run_dir, sizes)
    return done


def many_callers(
    specs: Sequence[DriverSpec], done: Sequence[Record], options: RunOptions, run_dir: Path,
    counts: Sequence[int] | None = None, user_model: bool = False,
) -> list[Record]:  # fmt: skip
    """The callers sweep (harness/callers_plan.py): each runtime's fastest row that takes
    callers, in each language, at each count in threads, and in processes where the
    language serves that way; ``counts`` in place of the plan's. A user's model's sweep
    runs the counts and rounds its call affords (``callers_plan.affordable``), each
    skipped point said once."""
    cores = len(machine.usable_cpus())
    plan = callers_plan.plan(specs, done, cores)
    half = callers_plan.rounds(options.rounds)
    rounds = {n: half for n in counts or plan.counts}
    if user_model:
        ids = {s.id for s in plan.threads}
        afford = callers_plan.affordable([r for r in done if r.id in ids], cores,
                                         options.rounds)  # fmt: skip
        for reason in afford.skipped:
            console.say(f"callers sweep point skipped: {reason}")
        rounds = afford.rounds
    swept: list[Record] = []
    for n, point_rounds in rounds.items():
        # A user's model's few rounds count as they ran, as its other sweeps' do: a ResNet-50
        # on 2 cores trips the contention probe in most rounds, which would leave one counted.
        point = replace(options, rounds=point_rounds,
                        contention_flags=options.contention_flags and not user_model)  # fmt: skip
        if plan.threads:
            swept += run_sweep("callers", plan.threads, point, run_dir, [n])
        if plan.processes and n > 1:
            swept += run_sweep("processes", plan.processes, point, run_dir, [n])
    return swept


def ways_of_the_cores(
    specs: Sequence[DriverSpec], done: Sequence[Record], many: Sequence[Record],
    batched: Sequence[Record], options: RunOptions, run_dir: Path, user_model: bool = False,
) -> list[Record]:  # fmt: skip
    """How best to use the cores (harness/cores_plan.py): each language's best row at N =
    the cores (of ``many``, the callers sweep) again at as many intra-op threads, and
    batching at one thread (at batch C and at ``batched``'s best point), with the callers'
    rounds (a user's model's trimmed as its callers' are)."""
    expected = check_models(options.models)
    if expected.signature.fixed_batch is not None:
        console.say(f"how best to use the cores: skipped: the model takes batches of "
                    f"{expected.signature.fixed_batch} only")  # fmt: skip
        return []
    cores = len(machine.usable_cpus())
    one_caller = {r.id: r for r in done if r.ok and r.sweep is None}
    planned = cores_plan.plan(specs, one_caller, many, batched, cores, expected.samples)
    for reason in planned.skipped:
        console.say(f"how best to use the cores: point skipped: {reason}")

    def rounds(rows: Sequence[DriverSpec], batch: int) -> int:
        call_s = max((one_caller[s.id].median_ns * batch / 1e9 for s in rows
                      if s.id in one_caller), default=0.0)  # fmt: skip
        return (callers_plan.point_rounds(call_s, options.rounds) if user_model
                else callers_plan.rounds(options.rounds))  # fmt: skip

    ran: list[Record] = []
    options = replace(options, contention_flags=options.contention_flags and not user_model)
    if planned.intra_op and planned.rows:
        point = replace(options, rounds=rounds(planned.rows, 1))
        ran += run_sweep("intra-op", planned.rows, point, run_dir, [planned.intra_op])
    for batch, rows in planned.batches.items():
        point = replace(options, rounds=rounds(rows, batch))
        ran += run_sweep("batching", rows, point, run_dir, [batch])
    return ran


def ladder(args: argparse.Namespace, options: RunOptions, run_dir: Path) -> None:
    """The Python call ladder into the run; its failure is said and the report goes on."""
    from callbench.cli.profile import LADDER_CALLS, LADDER_ROUNDS, QUICK_LADDER_CALLS, run_ladder

    calls = QUICK_LADDER_CALLS if args.quick else LADDER_CALLS
    ladder = replace(options, calls=calls, rounds=LADDER_ROUNDS, batch=1, threads=1)
    try:
        run_ladder(ladder, run_dir)
    except Exception as exc:  # a runtime's own failure: the report goes on
        print(f"callbench: the ladder failed ({named_first_line(exc)}); the report goes on "
              "without it", file=sys.stderr)  # fmt: skip


def write_report(run_dir: Path) -> int:
    """The run's report in its own folder (report.md, charts/, figures.csv), copied to
    results/latest/; the project's committed results/report.md is left alone."""
    from callbench.cli.report import as_latest, report

    print(f"wrote {report([str(run_dir)], run_dir)}, copied to {as_latest(run_dir)}")
    return 0
