"""Option parsing shared by the harness and the Python drivers: usage errors, not exits."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from callbench.errors import UsageError


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
