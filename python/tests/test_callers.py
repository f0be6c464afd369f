"""Contract 4's callers in the Python kit and the harness: every caller's samples, outputs and
latencies where the contract puts them, every caller verified, a failing or stopped caller
ending the run in one line with nothing left behind."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from callbench.driver_options import ONE_CALLER
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models
from callbench.harness.session import Session
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records.record import Record
from callbench.roles import PER_CALLER
from tests.conftest import SMALL_SAMPLES, HarnessRun
from tests.test_conformance import TRACES, error_lines

DRIVER = Path(__file__).with_name("callers_driver.py")


def command(mode: str, driver_id: str = "python-callers") -> list[str]:
    return [sys.executable, str(DRIVER), mode, driver_id]


def run_callers(mode: str, models: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(mode), "--models", str(models), "--warmup", "5", *args],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def taken(reference: np.ndarray, callers: int, calls: int) -> np.ndarray:
    """What contract 4 puts in the outputs: caller c's call i is call (c*K + i) mod S."""
    return np.concatenate([reference[(c * calls + np.arange(calls)) % len(reference)]
                           for c in range(callers)])  # fmt: skip


def test_each_caller_takes_its_own_samples_and_writes_its_own_outputs(
    small_models: Path, tmp_path: Path
) -> None:
    # Three callers of 9,000 calls over 20,000 samples: the last wraps around to the first.
    calls, outputs, latencies = 9000, tmp_path / "out.f32", tmp_path / "lat.i64"
    done = run_callers("ok", small_models, "--calls", str(calls), "--callers", "3",
                       "--repeats", "2", "--outputs", str(outputs),
                       "--latencies", str(latencies))  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["callers"] == 3
    assert result["notes"]["callers_hold"] == PER_CALLER
    for answer in result["rounds"]:
        assert answer["callers"] == 3 and len(answer["caller_ns"]) == 3
        assert max(answer["caller_ns"]) <= answer["ns"]
    reference = np.fromfile(small_models / "reference.f32", dtype="<f4")
    got = np.fromfile(outputs, dtype="<f4")
    assert 3 * calls > SMALL_SAMPLES and got.shape == (3 * calls,)
    assert np.abs(got - taken(reference, 3, calls)).max() < 1e-4
    # Every caller's durations, caller after caller.
    assert np.fromfile(latencies, dtype="<i8").shape == (3 * calls,)


def test_a_driver_that_runs_one_caller_says_so_in_the_contracts_words(
    small_models: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "callbench.driverkit", "python-numpy", "numpy_forward:setup",
         "--models", str(small_models), "--calls", "10", "--callers", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert error_lines(done.stderr) == [f"python-numpy: usage: {ONE_CALLER}"]


def test_a_failing_caller_ends_the_run_in_one_line_naming_it(small_models: Path) -> None:
    done = run_callers("fail-in-caller-1", small_models, "--calls", "200", "--callers", "3")
    assert done.returncode == 1, done.stderr[-800:]
    assert done.stdout == ""
    assert error_lines(done.stderr) == [
        "python-callers: error: caller 1: RuntimeError: caller 1 failed on purpose"
    ]
    assert not any(trace in done.stderr for trace in TRACES)


def test_a_stop_mid_round_ends_every_caller(small_models: Path) -> None:
    proc = subprocess.Popen(
        [*command("hang-in-caller-0"), "--models", str(small_models), "--calls", "100",
         "--warmup", "5", "--callers", "3", "--serve"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert json.loads(proc.stdout.readline())["event"] == "ready"
        proc.stdin.write("round 100\n")
        proc.stdin.flush()
        time.sleep(0.5)  # the other callers are done; caller 0 sleeps in its round
        threads = len(list(Path(f"/proc/{proc.pid}/task").iterdir()))
        assert threads >= 4  # the entry and its three callers
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == -signal.SIGTERM
    finally:
        proc.kill()
        proc.wait()
    assert not Path(f"/proc/{proc.pid}").exists()


def spec(mode: str, driver_id: str, holds: str | None = PER_CALLER) -> DriverSpec:
    return DriverSpec(
        id=driver_id, language="Python", runtime="numpy", artifact=art.WEIGHTS, source=DRIVER,
        command=lambda: command(mode, driver_id), callers=holds,
    )  # fmt: skip


def run_session(
    models: Path, tmp_path: Path, *specs: DriverSpec, callers: int
) -> dict[str, Record]:
    options = RunOptions(models=models, calls=300, rounds=3, warmup=5, pin=False, callers=callers)
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    done = Session(list(specs), options, run_dir, check_models(models)).run()
    return {r.id: r for r in done}


def test_the_harness_verifies_every_caller_and_skips_a_driver_of_one(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbench.harness import machine

    monkeypatch.setattr(machine, "steal_ns", lambda _cpus: None)
    records = run_session(small_models, tmp_path, spec("ok", "fine"),
                          spec("wrong-in-caller-2", "one-caller-wrong"),
                          spec("ok", "one-caller-only", holds=None), callers=3)  # fmt: skip
    fine = records["fine"]
    assert fine.status == "ok", fine.error
    assert (fine.callers, fine.callers_verified) == (3, 3)
    assert all(r.callers == 3 and r.caller_ns and len(r.caller_ns) == 3 for r in fine.rounds)
    # A round's time per call counts every caller's calls.
    assert fine.rounds[0].per_call_ns == fine.rounds[0].ns / (300 * 3)
    latencies = fine.latency_samples()
    assert latencies is not None and latencies.shape == (3 * 300,)
    wrong = records["one-caller-wrong"]
    assert wrong.status == "failed" and "outputs differ" in str(wrong.error)
    assert wrong.callers_verified is None
    only = records["one-caller-only"]
    assert only.status == "skipped" and ONE_CALLER in str(only.error)


def test_callbench_run_callers_runs_each_row_at_each_n_every_caller_verified(
    run_harness: Callable[..., HarnessRun],
) -> None:
    done = run_harness("--only", "python-onnxruntime", "--only", "python-numpy",
                       "--callers", "1,2", "--calls", "3000")  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    for n in (1, 2):
        record = done.records[f"python-onnxruntime@{n}"]
        assert record.status == "ok", record.error
        assert (record.sweep, record.callers, record.callers_verified) == (
            {"kind": "callers", "value": n},
            n,
            n,
        )
        assert record.notes.get("callers_hold") == (None if n == 1 else "shared")
    assert done.records["python-numpy@1"].status == "ok"
    assert done.records["python-numpy@2"].status == "skipped"


@pytest.mark.parametrize(
    ("given", "says"),
    [(["--callers", "0"], "below the minimum 1"), (["--callers", "2,2"], "names a value twice"),
     (["--callers", "2", "--sweep", "batch"], "--sweep and --callers are each a sweep")],
)  # fmt: skip
def test_callers_a_run_cannot_take_are_a_usage_error(
    run_harness: Callable[..., HarnessRun], given: list[str], says: str
) -> None:
    done = run_harness("--only", "python-numpy", *given)
    assert done.returncode == 2 and says in done.stderr, done.stderr[-500:]
