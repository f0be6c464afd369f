"""The round dialogue of contract v2 (``--serve``), and the same run as a script without it.

After loading and warming up, the driver answers ``round K``, ``latencies K``
and ``end`` one line at a time; standalone, it runs ``round N`` R times,
``latencies`` if asked, then ``end``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from callbench.command_line import report_errors
from callbench.driver_options import STANDALONE_LATENCY_CALLS, Options, parse_options
from callbench.driverkit import rounds
from callbench.driverkit.model import Setup, load
from callbench.driverkit.outputs import write_latencies, write_outputs
from callbench.driverkit.result import result_line
from callbench.errors import UsageError


@dataclass(frozen=True)
class Command:
    verb: str  # "round", "latencies" or "end"
    calls: int = 0


def parse_command(line: str, max_calls: int) -> Command:
    """One line of the dialogue; UsageError for anything the contract does not allow."""
    words = line.split()
    if words == ["end"]:
        return Command("end")
    if len(words) == 2 and words[0] in ("round", "latencies"):
        try:
            calls = int(words[1])
        except ValueError:
            raise UsageError(f"command {line.strip()!r}: {words[1]!r} is not a number") from None
        if not 1 <= calls <= max_calls:
            raise UsageError(f"command {line.strip()!r}: calls must be in 1..{max_calls}")
        return Command(words[0], calls)
    raise UsageError(f"unknown command {line.strip()!r} (round K, latencies K or end)")


def script(options: Options) -> Iterator[Command]:
    """What a standalone run does, as commands."""
    for _ in range(options.repeats):
        yield Command("round", options.calls)
    if options.latencies is not None:
        yield Command("latencies", min(options.calls, STANDALONE_LATENCY_CALLS))
    yield Command("end")


def commands_from(stream: TextIO, max_calls: int) -> Iterator[Command]:
    for line in stream:
        if line.strip():
            yield parse_command(line, max_calls)
    yield Command("end")  # end of input ends the run as `end` does


def say(data: dict[str, Any]) -> None:
    print(json.dumps(data), flush=True)


def progress(stage: str) -> None:
    """The contract's optional ``progress: <stage>`` line, on stderr."""
    print(f"progress: {stage}", file=sys.stderr, flush=True)


def run(
    driver_id: str, setup: Setup, options: Options, commands: Iterable[Command] | None = None
) -> dict[str, Any]:
    """Load, warm up, answer the commands; return the result line."""
    progress("loading")
    model = load(setup, options)
    prepared, outputs, load_ns = model.prepared, model.outputs, model.load_ns
    done: list[rounds.Round] = []
    with prepared.context():
        progress("warm-up")
        rounds.warm_up(prepared.loop, options.calls, options.warmup)
        if options.serve:
            say({"event": "ready", "load_ns": load_ns})
            commands = commands_from(sys.stdin, options.calls)
        elif commands is None:
            commands = script(options)
        for command in commands:
            if command.verb == "round":
                done.append(rounds.timed_round(prepared.loop, command.calls, outputs))
                if options.serve:
                    say({"event": "round", **done[-1].to_json()})
            elif command.verb == "latencies":
                if options.latencies is None:
                    raise UsageError("latencies K needs --latencies PATH")
                write_latencies(options.latencies, rounds.latencies(prepared.loop, command.calls))
                if options.serve:
                    say({"event": "latencies", "calls": command.calls})
            else:
                break
    if options.outputs is not None and done:
        write_outputs(options.outputs, outputs, done[-1].calls * options.batch)
    notes = dict(prepared.notes)
    return result_line(driver_id, options, prepared.runtime_version, load_ns, done, notes)


def driver_main(driver_id: str, setup: Setup, argv: Sequence[str] | None = None) -> int:
    """Run a driver as a program: JSON on stdout, or one error line on stderr."""
    args = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        say(run(driver_id, setup, parse_options(args)))
        return 0

    return report_errors(driver_id, body, "--debug" in args, catch_all=True)
