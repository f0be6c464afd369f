"""A Python driver's entry: its options, the timed load, inputs, warm-up, then the dialogue
(``--serve``) or the standalone script, the outputs and the result line; any failure one
line on stderr, the driver id added here, once."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from callbench.command_line import report_errors
from callbench.driver_options import help_line, parse_options
from callbench.driverkit import rounds
from callbench.driverkit.model import Setup, load
from callbench.driverkit.outputs import write_outputs
from callbench.driverkit.result import result_line
from callbench.driverkit.serve import answer, run_script, serve


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
        progress("loading")
        loaded = load(setup, options)
        model = loaded.model
        with model.context():
            progress("warm-up")
            warmup = rounds.warm_up(model.loop, options.calls, options.warmup,
                                    options.warmup_time)  # fmt: skip
            done = serve(options, loaded, warmup) if options.serve else run_script(options, loaded)
        if options.outputs is not None and done:
            write_outputs(options.outputs, loaded.outputs, done[-1].calls * options.batch)
        answer(result_line(driver_id, options, model.runtime_version, loaded.load_ns, done,
                           dict(model.notes)))  # fmt: skip
        return 0

    return report_errors(driver_id, body, "--debug" in args, catch_all=True)
