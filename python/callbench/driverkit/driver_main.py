"""A Python driver's entry: its options, the timed load, inputs, warm-up, then the dialogue
(``--serve``) or the standalone script, the outputs and the result line; any failure one
line on stderr, the driver id added here, once."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from callbench.command_line import report_errors
from callbench.driver_options import FIXED_BATCH, ONE_CALLER, Options, help_line, parse_options
from callbench.driverkit import callers, rounds
from callbench.driverkit.batcher import ONE_GATHERER, Batcher
from callbench.driverkit.inputs import read_inputs
from callbench.driverkit.model import TAKES_CALLERS, TAKES_GATHERED, LoadedModel, Setup, load
from callbench.driverkit.outputs import write_outputs
from callbench.driverkit.result import result_line
from callbench.driverkit.serve import Done, answer, run_script, serve
from callbench.errors import UsageError
from callbench.model.artifacts import signature


def progress(stage: str) -> None:
    """The contract's optional ``progress: <stage>`` line, on stderr."""
    print(f"progress: {stage}", file=sys.stderr, flush=True)


def driver_main(driver_id: str, setup: Setup, argv: Sequence[str] | None = None) -> int:
    """Run a driver as a program: JSON on stdout, or one error line on stderr."""
    args = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        options = parse_options(args)
        if options.help:
            print(help_line(driver_id), flush=True)
            return 0
        if options.callers > 1 and not getattr(setup, TAKES_CALLERS, False):
            raise UsageError(ONE_CALLER)
        if options.max_delay is not None and options.callers > 1:
            raise UsageError(ONE_GATHERER)
        if options.gathered and not getattr(setup, TAKES_GATHERED, False):
            raise UsageError(FIXED_BATCH)
        progress("loading")
        loaded = load(setup, options)
        if options.callers > 1:
            return many_callers(driver_id, options, loaded)
        model = loaded.model
        with model.context():
            progress("warm-up")
            warmup = rounds.warm_up(model.loop, options.calls, options.warmup,
                                    options.warmup_time)  # fmt: skip
            one = rounds.OneCaller(model.loop, loaded.outputs, options.batch)
            runner: rounds.Runner = one
            if options.max_delay is not None:  # contract 7: paced rounds through the batcher
                gathered = model.gathered if options.gathered else None
                runner = Batcher(one, loaded.inputs, options.max_delay * 1000, gathered)
            done = run_rounds(options, runner, loaded, warmup)
        finish(driver_id, options, loaded, runner, done, dict(model.notes))
        return 0

    return report_errors(driver_id, body, "--debug" in args, catch_all=True)


def many_callers(driver_id: str, options: Options, loaded: LoadedModel) -> int:
    """Contract 4: N callers started after the load, warmed up together, the rounds, the end."""
    sharing = loaded.model.sharing
    if sharing is None:
        raise UsageError(ONE_CALLER)
    every = read_inputs(options, signature(options.models), every=True)
    runner = callers.Callers(loaded, options, every)
    progress("warm-up")
    warmup = runner.start()
    done = run_rounds(options, runner, loaded, warmup)
    runner.stop()
    notes = {**loaded.model.notes, **callers.note(sharing, options.callers)}
    finish(driver_id, options, loaded, runner, done, notes)
    return 0


def run_rounds(
    options: Options, runner: rounds.Runner, loaded: LoadedModel, warmup: rounds.Warmup
) -> Done:
    if options.serve:
        return serve(options, runner, loaded.load_ns, warmup)
    return run_script(options, runner)


def finish(
    driver_id: str,
    options: Options,
    loaded: LoadedModel,
    runner: rounds.Runner,
    done: Done,
    notes: dict[str, object],
) -> None:
    """The last round's (or paced round's) outputs written, then the result line."""
    if options.outputs is not None and done.last_calls:
        last = runner.last_outputs(done.last_calls)
        write_outputs(options.outputs, last, len(last[0]))
    answer(result_line(driver_id, options, loaded.model.runtime_version, loaded.load_ns,
                       done.rounds, notes))  # fmt: skip
