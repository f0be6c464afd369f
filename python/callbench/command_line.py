"""What every callbench command line shares: a parser that raises, number types, one-line errors.

Errors as the contract wants them: one line naming the file, exit 2 for usage, 1 for data.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

from callbench.errors import DataError, RunError, UsageError, named_first_line


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError, so callers print one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def count(minimum: int) -> Callable[[str], int]:
    """A whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below the minimum {minimum}")
        return value

    return parse


# A time's units, in ns.
UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def duration_ns(text: str) -> float:
    """A time with its unit (250us, 1ms, 0.02s), in ns."""
    found = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(ns|us|ms|s)\s*", text)
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time with a unit (250us, 1ms, 2s)")
    return float(found.group(1)) * UNITS[found.group(2)]


def counts(minimum: int) -> Callable[[str], list[int]]:
    """Whole numbers of at least ``minimum``, comma-separated, each once, in the order given."""
    one = count(minimum)

    def parse(text: str) -> list[int]:
        values = [one(part.strip()) for part in text.split(",")]
        if len(set(values)) != len(values):
            raise argparse.ArgumentTypeError(f"{text!r} names a value twice")
        return values

    return parse


def number(
    *, above: float = -math.inf, at_least: float = -math.inf, at_most: float = math.inf
) -> Callable[[str], float]:
    """A real number greater than ``above``, at least ``at_least``, at most ``at_most``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > above:
            raise argparse.ArgumentTypeError(f"{value} must be above {above:g}")
        if not value >= at_least:
            raise argparse.ArgumentTypeError(f"{value} must be at least {at_least:g}")
        if not value <= at_most:
            raise argparse.ArgumentTypeError(f"{value} must be at most {at_most:g}")
        return value

    return parse


positive = number(above=0)


def report_errors(prog: str, body: Callable[[], int], debug: bool, *, catch_all: bool) -> int:
    """Run ``body``; turn what goes wrong into one stderr line and an exit status.

    Usage errors exit 2, bad artifacts 1, Ctrl-C 130. With ``catch_all`` any
    other exception (a runtime's own failure) is also one line, exit 1.
    ``debug`` adds the traceback.
    """
    try:
        return body()
    except UsageError as exc:
        print(f"{prog}: usage: {exc}", file=sys.stderr)
        return 2
    except (DataError, RunError) as exc:
        if debug:
            traceback.print_exc()
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if not catch_all:
            raise
        if debug:
            traceback.print_exc()
        print(f"{prog}: error: {named_first_line(exc)}", file=sys.stderr)
        return 1
