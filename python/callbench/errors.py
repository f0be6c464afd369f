"""Errors a user can act on: one line, naming the file and the problem."""

from __future__ import annotations

from pathlib import Path

EXPORT_HINT = "run `nox -s export` first"


class UsageError(Exception):
    """An option is missing or out of range (exit status 2)."""


class DataError(Exception):
    """An input file is missing, corrupt or does not match the manifest (exit status 1)."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = Path(path)
        self.problem = problem


class RunError(Exception):
    """A run cannot go on (results folder unwritable, a record unreadable): one line, exit 1."""


def first_line(exc: BaseException) -> str:
    """The first non-blank line of an exception's message, or its class name when it has none."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def named_first_line(exc: BaseException) -> str:
    """``Class: first line`` for an unexpected exception (a runtime's own failure)."""
    name = type(exc).__name__
    first = first_line(exc)
    return first if first.startswith(name) else f"{name}: {first}"
