"""The Python kit's reading of the dialogue's commands (driverkit/serve.py), as C++'s
test_serve.cpp reads its own: contract 6's ``paced FILE [START]`` among them."""

from __future__ import annotations

from pathlib import Path

import pytest

from callbench.driverkit.serve import Command, parse_command
from callbench.errors import UsageError


def test_the_commands_are_read() -> None:
    assert parse_command("round 10", 10) == Command("round", 10)
    assert parse_command("latencies 1", 10) == Command("latencies", 1)
    assert parse_command("end", 10) == Command("end")
    assert parse_command("paced /tmp/s.i64", 10) == Command("paced", schedule=Path("/tmp/s.i64"))
    assert parse_command("paced /tmp/s.i64 123", 10) == Command(
        "paced", schedule=Path("/tmp/s.i64"), start_ns=123
    )


@pytest.mark.parametrize(
    "line", ["paced", "paced /tmp/s.i64 soon", "paced /tmp/s.i64 -5", "paced a 1 2", "round 11"]
)
def test_what_the_contract_does_not_allow_is_a_usage_error(line: str) -> None:
    with pytest.raises(UsageError):
        parse_command(line, 10)
