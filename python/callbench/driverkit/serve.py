"""The round dialogue of contract v2 (``--serve``), and the same commands as a standalone
script without it.

After loading and warming up, ``serve`` prints the ready line and answers ``round K``,
``latencies K``, ``paced FILE [START [COUNTER]]`` (contract 6) and ``end`` one line at a time;
``run_script`` runs ``round N`` R times, ``latencies`` if asked, then ``end``, answering nothing (a
standalone run prints its result line alone). Both return what ran: the rounds, in order,
and the calls whose outputs the run leaves (the last round's, or the slots a paced round filled).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from callbench.driver_options import STANDALONE_LATENCY_CALLS, Options
from callbench.driverkit import rounds
from callbench.driverkit.outputs import write_int64s
from callbench.driverkit.paced import read_schedule
from callbench.driverkit.shared_counter import SharedCounter
from callbench.errors import UsageError


@dataclass(frozen=True)
class Command:
    verb: str  # "round", "latencies", "paced" or "end"
    calls: int = 0
    schedule: Path | None = None  # paced: the file of arrival offsets
    start_ns: int | None = None  # paced: START, on the monotonic clock (None: the kit's own)
    counter: Path | None = None  # paced: COUNTER, the next arrival N copies share (or None)


@dataclass
class Done:
    """What a run's commands did: its rounds, and the calls its outputs hold (0: none)."""

    rounds: list[rounds.Round] = field(default_factory=list)
    last_calls: int = 0


def parse_command(line: str, max_calls: int) -> Command:
    """One line of the dialogue; UsageError for anything the contract does not allow."""
    words = line.split()
    if words == ["end"]:
        return Command("end")
    if len(words) in (2, 3, 4) and words[0] == "paced":
        start = words[2] if len(words) >= 3 else None
        if start is not None and not start.isdigit():
            raise UsageError(f"command {line.strip()!r}: START {start!r} is not a time in ns")
        return Command("paced", schedule=Path(words[1]),
                       start_ns=None if start is None else int(start),
                       counter=Path(words[3]) if len(words) == 4 else None)  # fmt: skip
    if len(words) == 2 and words[0] in ("round", "latencies"):
        try:
            calls = int(words[1])
        except ValueError:
            raise UsageError(f"command {line.strip()!r}: {words[1]!r} is not a number") from None
        if not 1 <= calls <= max_calls:
            raise UsageError(f"command {line.strip()!r}: calls must be in 1..{max_calls}")
        return Command(words[0], calls)
    raise UsageError(
        f"unknown command {line.strip()!r} "
        "(round K, latencies K, paced FILE [START [COUNTER]] or end)"
    )


def standalone_script(options: Options) -> list[Command]:
    """What a standalone run does, as commands."""
    script = [Command("round", options.calls) for _ in range(options.repeats)]
    if options.latencies is not None:
        script.append(Command("latencies", min(options.calls, STANDALONE_LATENCY_CALLS)))
    return [*script, Command("end")]


def _commands_from(stream: TextIO, max_calls: int) -> Iterator[Command]:
    for line in stream:
        if line.strip():
            yield parse_command(line, max_calls)
    yield Command("end")  # end of input ends the run as `end` does


def answer(data: dict[str, Any]) -> None:
    print(json.dumps(data), flush=True)


def serve(
    options: Options,
    runner: rounds.Runner,
    load_ns: int,
    warmup: rounds.Warmup,
    stream: TextIO | None = None,
) -> Done:
    """The ready line, then each command of ``stream`` (standard input) answered until ``end``."""
    answer({"event": "ready", "load_ns": load_ns, **warmup.to_json()})
    commands = _commands_from(stream or sys.stdin, options.calls)
    return _execute(commands, options, runner, answering=True)


def run_script(options: Options, runner: rounds.Runner) -> Done:
    """The standalone script, answering nothing."""
    return _execute(standalone_script(options), options, runner, answering=False)


def _execute(
    commands: Iterable[Command], options: Options, runner: rounds.Runner, *, answering: bool
) -> Done:
    done = Done()
    for command in commands:
        if command.verb == "round":
            done.rounds.append(runner.timed_round(command.calls))
            done.last_calls = command.calls
            if answering:
                answer({"event": "round", **done.rounds[-1].to_json()})
        elif command.verb in ("latencies", "paced"):
            if options.latencies is None:
                raise UsageError(
                    f"{command.verb} {'K' if command.verb == 'latencies' else 'FILE'} "
                    "needs --latencies PATH"
                )
            if command.verb == "latencies":
                write_int64s(options.latencies, runner.latencies(command.calls))
                if answering:
                    answer({"event": "latencies", "calls": command.calls})
                continue
            assert command.schedule is not None
            offsets = read_schedule(command.schedule)
            counter = None if command.counter is None else SharedCounter(command.counter)
            try:
                pacing = runner.paced(offsets, command.start_ns, counter)
            finally:
                if counter is not None:
                    counter.close()
            write_int64s(options.latencies, pacing.timings.ravel())
            done.last_calls = pacing.filled
            if answering:
                answer(pacing.answer())
        else:
            break
    return done
