"""``callbench run`` (the harness) and ``callbench bench`` (the whole pipeline as one run):
each command's options made into a plan and its phases (``cli/phases/``) run in order, each
timed into the run's env.json."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from callbench.cli import common
from callbench.cli.builds import BUILT, build
from callbench.cli.ending import finish, stopped
from callbench.cli.phases.callers import QUICK_CALLERS, many_callers
from callbench.cli.phases.kernels import kernels
from callbench.cli.phases.ladder import ladder
from callbench.cli.phases.measure import measure
from callbench.cli.phases.report import write_report
from callbench.cli.phases.serving import served_ways
from callbench.cli.phases.sweeps import sweeps
from callbench.cli.phases.user_model import brought, user_model_run
from callbench.cli.phases.ways_of_the_cores import ways_of_the_cores
from callbench.cli.phases.widths import widths
from callbench.errors import DataError, UsageError
from callbench.harness import signals
from callbench.harness.load import gpu_sweep
from callbench.harness.run import run_sweep, run_widths
from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.model.export_options import ExportOptions, run_export
from callbench.records.phases import Phases
from callbench.records.store import new_run_dir
from callbench.registry import LANGUAGES, language_key

# --quick: the whole pipeline at a small size, as a smoke test.
QUICK = {"rounds": 3, "round_time": 0.02, "warmup": 1000}


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
            done = measure(specs, options, run_dir, phases)
    except KeyboardInterrupt as stop:
        if run_dir is not None:
            phases.write(run_dir)
        return stopped(stop, run_dir)
    finish(done, run_dir)
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
        done = measure(specs, options, run_dir, phases)
        swept = sweeps(specs, done, options, run_dir, phases, args.quick)
        with phases.timed("callers"):
            counts = QUICK_CALLERS if args.quick else None
            many = many_callers(specs, done, options, run_dir, counts)
            spent = ways_of_the_cores(specs, done, many, swept.batched, options, run_dir)
        if not args.no_serving:
            with phases.timed("serving"):
                served_ways(specs, done, [*many, *spent], options, run_dir, args.p99_ns,
                            args.quick, args.serving_budget)  # fmt: skip
        if sizes:  # with --only, every chosen driver; else each runtime's fastest and the GPU's
            widened = [*swept.sweepers, *(s for s in swept.on_gpu if gpu_sweep.runs_here(s))]
            rows = specs if args.only else widened
            widths(rows, specs, swept.on_gpu, options, run_dir, sizes, phases)
    except KeyboardInterrupt as stop:
        phases.write(run_dir)
        return stopped(stop, run_dir)
    finish(done, run_dir)
    kernels(run_dir, args.quick or options.calls is None, options.threads, phases)
    if args.only is None and (args.language is None or "python" in args.language):
        with phases.timed("ladder"):
            ladder(args, options, run_dir)
    phases.write(run_dir)  # the report reads them
    with phases.timed("report"):
        status = write_report(run_dir)
    phases.write(run_dir)
    print(phases.summary())
    return status
