"""The Python kit's reading of the dialogue's commands (driverkit/serve.py), as C++'s
test_serve.cpp reads its own: contract 6's ``paced FILE [START [COUNTER]]`` among them, and
the count N copies share (driverkit/shared_counter.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from callbench.driverkit.serve import Command, parse_command
from callbench.driverkit.shared_counter import SharedCounter
from callbench.errors import DataError, UsageError


def test_the_commands_are_read() -> None:
    assert parse_command("round 10", 10) == Command("round", 10)
    assert parse_command("latencies 1", 10) == Command("latencies", 1)
    assert parse_command("end", 10) == Command("end")
    assert parse_command("paced /tmp/s.i64", 10) == Command("paced", schedule=Path("/tmp/s.i64"))
    assert parse_command("paced /tmp/s.i64 123", 10) == Command(
        "paced", schedule=Path("/tmp/s.i64"), start_ns=123
    )
    assert parse_command("paced /tmp/s.i64 123 /tmp/next.i64", 10) == Command(
        "paced", schedule=Path("/tmp/s.i64"), start_ns=123, counter=Path("/tmp/next.i64")
    )


@pytest.mark.parametrize(
    "line", ["paced", "paced /tmp/s.i64 soon", "paced /tmp/s.i64 -5", "paced a 1 c d", "round 11"]
)
def test_what_the_contract_does_not_allow_is_a_usage_error(line: str) -> None:
    with pytest.raises(UsageError):
        parse_command(line, 10)


def test_a_shared_count_gives_each_arrival_to_one_taker(tmp_path: Path) -> None:
    # Two openings of one counter (two copies' own locks, as two processes hold), each taken
    # from by its own thread at once: every index once, none lost.
    path = tmp_path / "next.i64"
    path.write_bytes(bytes(8))
    counters = [SharedCounter(path), SharedCounter(path)]
    taken: list[list[int]] = [[], []]

    def take(c: int) -> None:
        taken[c].extend(counters[c].take() for _ in range(3000))

    threads = [threading.Thread(target=take, args=(c,)) for c in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for counter in counters:
        counter.close()
    assert sorted(taken[0] + taken[1]) == list(range(6000))
    assert int.from_bytes(path.read_bytes(), "little") == 6000


@pytest.mark.parametrize("content", [b"", bytes(4), bytes(16)])
def test_a_counter_not_one_int64_is_bad_data_naming_it(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "next.i64"
    path.write_bytes(content)
    with pytest.raises(DataError, match=r"next\.i64"):
        SharedCounter(path)
