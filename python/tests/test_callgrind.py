"""callgrind's monitor commands sent through vgdb: what a refusal or an absent driver says."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from callbench.harness.count import callgrind
from callbench.harness.count.callgrind import CallgrindError

SLEEPER = "import sys; sys.stdin.readline()"


def test_an_absent_driver_is_a_callgrind_error_naming_the_commands() -> None:
    if callgrind.unavailable():
        pytest.skip("needs Valgrind")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    with pytest.raises(CallgrindError, match=r"vgdb `instrumentation off` and `dump` failed"):
        callgrind.control(int(gone.stdout), *callgrind.STOP_AND_DUMP)


def test_a_driver_waiting_in_a_read_is_counted_dumped_and_refuses_an_unknown_command(
    tmp_path: Path,
) -> None:
    """The state a driver is in between rounds: blocked reading its next command."""
    if callgrind.unavailable():
        pytest.skip("needs Valgrind")
    out = tmp_path / "callgrind.out"
    waiting = subprocess.Popen(
        [*callgrind.prefix(out, cache_sim=False), sys.executable, "-c", SLEEPER],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        for _ in range(600):  # Valgrind's gdbserver is reachable once Python waits
            try:
                callgrind.instrument(waiting.pid)
                break
            except CallgrindError:
                if waiting.poll() is not None:
                    pytest.fail("the driver ended before its gdbserver answered")
                time.sleep(0.1)
        events, totals = callgrind.dump(waiting.pid, out, 1)
        assert "Ir" in events and len(totals) == len(events)
        with pytest.raises(CallgrindError, match="not recognised"):
            callgrind.control(waiting.pid, "no such command")
    finally:
        assert waiting.stdin is not None
        waiting.stdin.write("\n")
        waiting.stdin.close()
        waiting.wait(timeout=120)
