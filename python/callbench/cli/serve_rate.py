"""``callbench serve-rate``: the highest rate each chosen row serves within a p99 bound.

Requests arrive on their own clock (Poisson arrivals, contract 6's paced rounds); each row at
each number of callers is loaded once, timed in a closed loop, served at a curve of shares of
that loop's rate, then searched from the curve's bracket (each search serving its failing
end again first, so that it brackets on its own; the rows and N taking turns, one search of
each at a time, so that every row's searches span the run) for the highest rate whose p99,
counted from each request's arrival, stays within the bound (MLPerf LoadGen's Server
scenario), REPEATS times: the rate is their median with an interval (``--quick``: one search,
no interval, said so), and the last point's outputs are checked. The
bound is one figure for every row of the run: ``--p99``, else 1 ms for our MLP, else (a
model the user brought) ten times the slowest chosen row's median call at one caller, timed
first in this run, rounded up to a 1-2-5 step.

The rows: those named (``--only``, ``--language``) at each ``--callers`` N, and in each
``--processes`` N copies (dealt as ``--deal`` says, else as the language's front deals:
dealing.py); with none named, each language's best rows (serving_plan.py: its fastest row
at one caller, timed first in this run, at one caller and the cores, its twins at the cores,
Python's and Node.js's in as many processes), within ``--budget`` minutes, each point past
it said once and recorded as skipped.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from callbench.cli import common
from callbench.cli.ending import stopped
from callbench.cli.phases.report import write_report
from callbench.command_line import counts
from callbench.errors import UsageError
from callbench.harness import batch_reach, console, machine, signals
from callbench.harness.load import (
    dealing,
    dynamic_batcher,
    rate_repeats,
    rate_search,
    rows_in_turn,
    serving,
    serving_plan,
)
from callbench.harness.options import RunOptions, add_options
from callbench.harness.run import (
    check_call,
    check_models,
    close_env,
    harness_pinned,
    run_group,
    user_model,
    write_env,
)
from callbench.model.user_torch import PROGRAM
from callbench.records.phases import Phases
from callbench.records.record import Record
from callbench.records.store import new_run_dir
from callbench.registry import language_key, select
from callbench.report.sections import serving_times

# Our MLP's bound: a call of a few microseconds, a service's millisecond.
MLP_BOUND_NS = 1e6
# One caller's rounds before a user's model's bound is set from them.
BOUND_ROUNDS = 5


def add_arguments(p: argparse.ArgumentParser) -> None:
    common.add_selection(p)
    g = p.add_argument_group("protocol")
    add_options(g, "models", "warmup", "warmup_time", "batch", "threads", "pin", "seed", "debug")
    common.add_where(p)
    p.add_argument(
        "--callers", type=counts(1), metavar="N,N...", dest="caller_counts",
        help="serve each row from N callers, each N in turn (default: 1 and the usable cores)",
    )  # fmt: skip
    common.add_p99(p, "the p99 bound, one for every row")
    p.add_argument(
        "--processes", type=counts(2), metavar="N,N...", dest="process_counts", default=[],
        help="also serve each named row in N copies, each N in turn, one caller each (default "
        "with no row named: Python's and Node.js's best rows in as many copies as cores)",
    )  # fmt: skip
    p.add_argument(
        "--deal", choices=sorted(dealing.DEALS),
        help="how N copies are dealt the arrivals: the first free copy takes the next "
        "(shared, gunicorn's way) or copy p every Nth (round-robin, Node.js cluster's way); "
        "default: the language's own (shared for Python, round-robin for Node.js)",
    )  # fmt: skip
    p.add_argument(
        "--batcher", type=counts(1), metavar="B,B...", dest="batcher_sizes", default=[],
        help="also serve each row (with no row named: each best row) through its kit's "
        "dynamic batcher of up to B arrivals a call, each B with each --max-delay (contract 7); "
        "a row whose runtime takes a changing batch both padded to B and gathered",
    )  # fmt: skip
    p.add_argument(
        "--max-delay", type=counts(0), metavar="US,US...", dest="batcher_delays",
        default=[dynamic_batcher.MAX_DELAY_US],
        help="with --batcher: the longest the batcher holds its oldest arrival for more, in "
        f"µs, each in turn (default {dynamic_batcher.MAX_DELAY_US})",
    )  # fmt: skip
    p.add_argument(
        "--budget", type=float, metavar="MIN", default=serving_plan.BUDGET_MIN,
        help="with no row named, the minutes the best rows may take (about "
        f"{serving_plan.ROW_AND_N_S / 60:g} min a row and N; default "
        f"{serving_plan.BUDGET_MIN:g}): the points past it are skipped, said once",
    )  # fmt: skip
    p.add_argument(
        "--quick", action="store_true",
        help=f"one search after the curve instead of {rate_repeats.REPEATS}: a rate without an "
        "interval, labelled so in the report",
    )  # fmt: skip


def main(args: argparse.Namespace) -> int:
    signals.install()
    options = RunOptions.of(args, rounds=BOUND_ROUNDS)
    named = bool(args.only or args.language)
    expected = check_models(options.models)
    check_call(options, expected)
    callers = args.caller_counts or sorted({1, len(machine.usable_cpus())})
    repeats = 1 if args.quick else rate_repeats.REPEATS
    deal = dealing.DEALS[args.deal] if args.deal else None
    batchers = dynamic_batcher.batchers(args.batcher_sizes, args.batcher_delays)
    phases, run_dir = Phases(), new_run_dir(args.runs_dir, args.run_id)
    done: list[Record] = []
    try:
        if named:
            specs = common.selection(args)
            plan = _named_plan(
                [serving_plan.ServingPoint(spec, n) for n in callers for spec in specs]
                + [serving_plan.ServingPoint(spec, 1, n) for n in args.process_counts
                   for spec in specs]
                + [serving_plan.ServingPoint(spec, 1, batcher=way) for b in batchers
                   for spec in specs for way in dynamic_batcher.ways(spec, b)],
                deal, options.models)  # fmt: skip
            one_caller: list[Record] | None = None
        else:
            with phases.timed("measure"):
                one_caller, plan = _best_rows(options, run_dir, args.budget * 60, batchers)
        bound, said = _bound(args, options, plan, one_caller, run_dir, phases)
        write_env(run_dir, options, options.models)
        console.say(f"serve-rate {run_dir.name}: {len(plan.kept)} rows and N, about "
                    f"{plan.estimate_s / 60:.0f} min, p99 within {bound / 1e6:g} ms "
                    f"({said})")  # fmt: skip
        for point, why in plan.skipped:
            console.say(f"  {point.label}: skipped, {why}")
        with phases.timed("serving"):

            def at_rate(
                point: serving_plan.ServingPoint, skip: str | None = None
            ) -> serving.RowAtRate:
                return serving.RowAtRate(
                    point.spec,
                    point.callers,
                    options,
                    run_dir,
                    expected,
                    bound,
                    said,
                    repeats,
                    point.processes,
                    deal,
                    skip=skip,
                    batcher=point.batcher,
                )

            rows = [at_rate(point) for point in plan.kept]
            for point, why in plan.skipped:
                at_rate(point, why).begin()  # its record written, skipped, saying why

            done = rows_in_turn.serve_in_turn(
                rows, pinned_for(options),
                lambda row: console.say(f"  {row.label}: {summary(row.record)}"),
            )  # fmt: skip
        close_env(run_dir)
        with phases.timed("report"):
            write_report(run_dir)
    except KeyboardInterrupt as stop:
        phases.write(run_dir)
        return stopped(stop, run_dir)
    phases.write(run_dir)
    print(f"\nrecords: {run_dir}\n{phases.summary()}")
    return 0 if all(r.status != "failed" for r in done) else 1


def pinned_for(
    options: RunOptions,
) -> Callable[[serving.RowAtRate], AbstractContextManager[None]]:
    """Each row's steps with the harness kept off the cores its drivers' threads take."""

    def pinned(row: serving.RowAtRate) -> AbstractContextManager[None]:
        threads = row.threads * row.callers * row.processes
        return harness_pinned(machine.harness_cpus(machine.driver_cpus(threads, options.pin)))

    return pinned


def bound_of_run(p99_ns: float | None, models: Path, timed: list[Record]) -> tuple[float, str]:
    """The run's p99 bound and where it comes from: ``p99_ns`` (--p99), else our MLP's, else
    (a user's model) from ``timed``, the compared rows at one caller."""
    if p99_ns is not None:
        return p99_ns, "--p99"
    if user_model(models) is None and not (models / PROGRAM).is_file():
        return MLP_BOUND_NS, "our MLP's bound (1 ms)"
    return _bound_of_model(timed)


def _named_plan(
    points: list[serving_plan.ServingPoint], deal: str | None, models: Path
) -> serving_plan.ServingPlan:
    """The named points, those that cannot be served here (a twin at one caller, a kit without
    paced rounds or a batcher, a batcher's B past what the row's artifact reaches) skipped with
    why before the run starts, so that its estimate counts only the points it serves."""
    kept: list[serving_plan.ServingPoint] = []
    skipped: list[tuple[serving_plan.ServingPoint, str]] = []
    for point in points:
        dealt = (dealing.deal_for(language_key(point.spec), deal)
                 if point.processes > 1 else None)  # fmt: skip
        why = (serving.why_not(point.spec, point.callers, dealt)
               or (batch_reach.why_not_at(point.spec, models, point.batcher.batch)
                   if point.batcher is not None else None))  # fmt: skip
        if why is None:
            kept.append(point)
        else:
            skipped.append((point, why))
    return serving_plan.ServingPlan(kept, skipped)


def _best_rows(
    options: RunOptions, run_dir: Path, budget_s: float, batchers: list[dynamic_batcher.Batcher]
) -> tuple[list[Record], serving_plan.ServingPlan]:
    """Every row the callers sweep would take, timed at one caller (the main group), and the
    plan of each language's best rows from them."""
    every = select()
    candidates = serving_plan.candidates(every, list(serving.PACED_LANGUAGES))
    one_caller = run_group(candidates, options, run_dir)
    cores = len(machine.usable_cpus())
    return one_caller, serving_plan.plan(every, one_caller, cores, budget_s, batchers)


def _bound(
    args: argparse.Namespace, options: RunOptions, plan: serving_plan.ServingPlan,
    one_caller: list[Record] | None, run_dir: Path, phases: Phases,
) -> tuple[float, str]:  # fmt: skip
    """The p99 bound of the run, and where it comes from."""
    if args.p99_ns is not None or (
        user_model(options.models) is None and not (options.models / PROGRAM).is_file()
    ):
        return bound_of_run(args.p99_ns, options.models, [])
    specs = list({point.spec.id: point.spec for point in plan.kept}.values())
    if one_caller is None:
        with phases.timed("measure"):
            one_caller = run_group(specs, options, run_dir)
    chosen = {spec.id for spec in specs}
    return _bound_of_model([r for r in one_caller if r.id in chosen])


def _bound_of_model(timed: list[Record]) -> tuple[float, str]:
    """Ten times the slowest chosen row's median call at one caller, timed here first."""
    timed = [r for r in timed if r.ok]
    if not timed:
        raise UsageError("no chosen row ran at one caller: no bound to set (give --p99)")
    slowest = max(timed, key=lambda r: r.median_ns)
    bound = rate_search.bound_of_model(slowest.median_ns)
    return bound, (f"10x the slowest row's median call at one caller ({slowest.id}, "
                   f"{slowest.median_ns / 1e3:,.1f} us), up to a 1-2-5 step")  # fmt: skip


def summary(record: Record) -> str:
    """A served row in one line."""
    if record.status != "ok" or record.serving is None:
        return f"{record.status}: {record.error}"
    found = record.serving
    if found["rate"] is None:
        return "no rate within the bound"
    at = serving_times.confirmed(found)
    low, high = found.get("rate_interval") or (found["rate"], found["rate"])
    interval = (f" [{low:,.0f}-{high:,.0f}] of {found['repeats']} searches"
                if found.get("repeats", 1) > 1 else "")  # fmt: skip
    figures = (f"p50 {at['p50_ns'] / 1e3:,.1f} us, p99 {at['p99_ns'] / 1e3:,.1f} us; "
               if at else "")  # fmt: skip
    return (f"{found['rate']:,.0f} requests/s{interval} within the bound ({figures}closed "
            f"loop {found['closed_calls_per_s']:,.0f} calls/s)")  # fmt: skip
