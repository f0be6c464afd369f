"""The contract's driver options, declared once for Python: the kit parses them, the harness and
the profiler write them.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NoReturn

from callbench.errors import UsageError

DEFAULT_CALLS = 1_000_000
# The warm-up's cap in untimed calls after loading: enough for a JIT (the JVM's, V8's) to
# compile the call path first. The contract's default in every kit, and callbench run's.
WARMUP = 10_000
# ... and its time budget: a call of a real model (ResNet-50: ~0.1 s here) stops warming up
# after about this many seconds, once it has made MIN_WARMUP_CALLS; 0: no time limit. Our
# slowest MLP row (python-eager-seed) makes its 10,000 calls in 0.54 s: it keeps them all.
WARMUP_TIME = 2.0
MIN_WARMUP_CALLS = 5
# Calls a latency sample takes at most (the harness asks for min(calls, this)).
STANDALONE_LATENCY_CALLS = 100_000


@dataclass(frozen=True)
class Options:
    models: Path = Path("models")
    calls: int = DEFAULT_CALLS
    warmup: int = WARMUP
    warmup_time: float = WARMUP_TIME
    repeats: int = 3
    batch: int = 1
    threads: int = 1
    callers: int = 1  # contract 4: callers calling the model at once
    # Contract 7: a paced round served by a batcher of up to --batch arrivals a call, the
    # oldest it holds waiting at most this many µs (Triton's max_queue_delay_microseconds).
    max_delay: int | None = None
    # ... each of its calls at the size it gathered, not padded to B (a driver whose runtime
    # takes a changing batch, by its opt-in).
    gathered: bool = False
    outputs: Path | None = None
    latencies: Path | None = None
    serve: bool = False
    debug: bool = False
    help: bool = False  # the entry prints help_line and exits 0, loading nothing

    def arguments(self) -> list[str]:
        """These options as a driver's command line (what the harness passes)."""
        args = [
            "--models", str(self.models), "--calls", str(self.calls),
            "--warmup", str(self.warmup), "--warmup-time", repr(float(self.warmup_time)),
            "--batch", str(self.batch), "--threads", str(self.threads),
        ]  # fmt: skip
        if self.callers != 1:  # one caller is every driver's default: its command line as before
            args += ["--callers", str(self.callers)]
        if self.max_delay is not None:
            args += ["--max-delay", str(self.max_delay)]
        if self.gathered:
            args.append("--gathered")
        if not self.serve:  # in serve mode the harness asks for each round itself
            args += ["--repeats", str(self.repeats)]
        for flag, path in (("--outputs", self.outputs), ("--latencies", self.latencies)):
            if path is not None:
                args += [flag, str(path)]
        if self.serve:
            args.append("--serve")
        if self.debug:
            args.append("--debug")
        return args


def help_line(driver_id: str) -> str:
    """What ``--help`` prints, the same in every kit (docs/contract.md, "The contract's
    words")."""
    return (f"usage: {driver_id} [--models DIR] [--calls N] [--warmup W] [--warmup-time S] "
            "[--repeats R] [--batch B] [--threads T] [--callers N] [--max-delay US] "
            "[--gathered] [--outputs PATH] [--latencies PATH] [--serve] [--debug]")  # fmt: skip


# What a driver answers to --callers N > 1 when it runs one caller (contract 4).
ONE_CALLER = "--callers N > 1 is not supported: this driver runs one caller"
# What --gathered without --max-delay answers, and a driver whose call takes a fixed batch.
GATHERED_ALONE = "--gathered takes --max-delay: it sizes the batcher's calls"
FIXED_BATCH = "--gathered is not supported: this driver's call takes a fixed batch"


# The value checks raise UsageError in the contract's words; argparse lets it through (it
# catches only ValueError, TypeError and ArgumentTypeError from a type).
def _count(flag: str, minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?\d+", text.strip()):
            raise UsageError(f"{flag} needs an integer, got '{text}'")
        if (value := int(text)) < minimum:
            raise UsageError(f"{flag} must be >= {minimum}, got {value}")
        return value

    return parse


def _seconds(flag: str) -> Callable[[str], float]:
    """A plain decimal number in 0..1e6 (no inf or nan)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise UsageError(f"{flag} needs a number, got '{text}'")
        if not 0 <= value <= 1e6:
            raise UsageError(f"{flag} must be in 0..1000000, got {text}")
        return value

    return parse


def _path(flag: str, what: str) -> Callable[[str], Path]:
    def parse(text: str) -> Path:
        if not text:
            raise UsageError(f"{flag} needs {what}")
        return Path(text)

    return parse


# Each option's type on the command line, by its flag; its default is the field's above.
_TYPES: dict[str, Callable[[str], Any]] = {
    "--models": _path("--models", "a folder"), "--calls": _count("--calls", 1),
    "--warmup": _count("--warmup", 0), "--warmup-time": _seconds("--warmup-time"),
    "--repeats": _count("--repeats", 1), "--batch": _count("--batch", 1),
    "--threads": _count("--threads", 1), "--callers": _count("--callers", 1),
    "--max-delay": _count("--max-delay", 0),
    "--outputs": _path("--outputs", "a path"),
    "--latencies": _path("--latencies", "a path"),
}  # fmt: skip


class _Parser(argparse.ArgumentParser):
    """argparse with whole option names only, its own errors in the contract's words."""

    def __init__(self) -> None:
        super().__init__(add_help=False, allow_abbrev=False)

    def error(self, message: str) -> NoReturn:
        if found := re.match(r"argument (\S+): expected one argument", message):
            raise UsageError(f"{found[1]} needs a value")
        if found := re.match(r"argument (\S+): ignored explicit argument", message):
            raise UsageError(f"{found[1]} takes no value")
        if found := re.match(r"unrecognized arguments: ([^ =]*)", message):
            raise UsageError(f"unknown option '{found[1]}'")
        raise UsageError(message)


def parse_options(argv: Sequence[str]) -> Options:
    parser = _Parser()
    for option in fields(Options):
        flag = "--" + option.name.replace("_", "-")
        if flag in _TYPES:
            parser.add_argument(flag, type=_TYPES[flag], default=option.default)
        else:  # --gathered, --serve, --debug, --help
            parser.add_argument(flag, action="store_true")
    options = Options(**vars(parser.parse_args(argv)))
    if options.gathered and options.max_delay is None:
        raise UsageError(GATHERED_ALONE)
    return options
