"""``--processes N``: N copies of a driver timed as one, every copy verified, a failing copy
ending its row in one line with no copy left running."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from callbench.harness import processes
from callbench.harness.copies import spanned
from callbench.harness.processes import DriverError
from callbench.records.record import Record
from tests.conftest import HarnessRun
from tests.test_harness import fake, run


@pytest.fixture(autouse=True)
def no_steal(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fake round claims microseconds; one tick of this VM's steal time would flag it.
    from callbench.harness import machine

    monkeypatch.setattr(machine, "steal_ns", lambda _cpus: None)


@pytest.fixture
def pids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where each fake driver started leaves its pid."""
    folder = tmp_path / "pids"
    folder.mkdir()
    monkeypatch.setenv("FAKE_PIDS_DIR", str(folder))
    return folder


def none_left(pids: Path) -> None:
    started = [int(p.name) for p in pids.iterdir()]
    assert started, "no driver started"
    assert [pid for pid in started if Path(f"/proc/{pid}").exists()] == []
    assert not processes.LIVE


def test_a_round_of_n_copies_runs_from_the_first_start_to_the_last_end(
    small_models: Path, tmp_path: Path, pids: Path
) -> None:
    # Each copy's round of K calls takes 1000 K ns; copy P starts P x 500 ns after copy 0.
    record = run(small_models, tmp_path, fake("spaced-copies"), processes=3)["python-fake"]
    assert record.status == "ok", record.error
    assert (record.processes, record.callers, record.callers_verified) == (3, 3, 3)
    for r in record.rounds:
        assert r.callers == 3 and r.caller_ns == [1000 * r.calls] * 3
        assert r.ns == 1000 * r.calls + 2 * 500  # not the sum, not the pipe's skew
        assert r.per_call_ns == r.ns / (r.calls * 3)
    # Memory: each copy's peak, and the sum as the record's.
    assert record.notes["process_peak_rss_bytes"] == [1 << 20] * 3
    assert record.peak_rss_bytes == 3 << 20
    assert len(list(pids.iterdir())) == 3
    none_left(pids)


def test_every_copys_latencies_are_kept_copy_after_copy(
    small_models: Path, tmp_path: Path, pids: Path
) -> None:
    record = run(small_models, tmp_path, fake("ok"), processes=2, latencies=True)["python-fake"]
    assert record.status == "ok", record.error
    assert record.latencies is not None
    read = Record.from_json(record.to_json(), tmp_path / "run" / "python-fake.json")
    samples = read.latency_samples()
    assert samples is not None and list(samples) == [*range(1, 21)] * 2


def test_a_failing_copy_fails_its_row_in_one_line_and_leaves_no_copy(
    small_models: Path, tmp_path: Path, pids: Path
) -> None:
    records = run(small_models, tmp_path, fake("copy-1-crashes-in-round-3", "python-crash"),
                  fake("ok"), processes=3)  # fmt: skip
    crashed = records["python-crash"]
    assert crashed.status == "failed" and crashed.callers_verified is None
    error = str(crashed.error)
    assert error.startswith("process 1: crashed with signal SIGSEGV") and "\n" not in error
    assert records["python-fake"].status == "ok"  # the other row goes on
    assert {r.index for r in records["python-fake"].rounds} == {0, 1, 2, 3}
    assert len(list(pids.iterdir())) == 6
    none_left(pids)


def test_a_copy_with_wrong_outputs_fails_the_row_naming_it(
    small_models: Path, tmp_path: Path, pids: Path
) -> None:
    record = run(small_models, tmp_path, fake("wrong-outputs"), processes=2)["python-fake"]
    assert record.status == "failed"
    assert str(record.error).startswith("process 0: outputs differ"), record.error
    none_left(pids)


def test_a_plain_caller_is_skipped_at_n_processes(
    small_models: Path, tmp_path: Path, pids: Path
) -> None:
    record = run(small_models, tmp_path, fake("ok", "independent-fake"), processes=2)
    assert record["independent-fake"].status == "skipped"
    assert "its rounds do not say when they ran" in str(record["independent-fake"].error)
    assert list(pids.iterdir()) == []  # nothing started


def test_an_answer_without_its_times_is_the_copys_error() -> None:
    answer = {"event": "round", "calls": 5, "ns": 50, "cpu_ns": 50}
    timed = {**answer, "start_ns": 100, "end_ns": 150}
    with pytest.raises(DriverError, match=r"^process 1: its round answer says nothing of when"):
        spanned([timed, answer])
    assert spanned([timed, {**timed, "start_ns": 90, "end_ns": 140}])["ns"] == 60


def test_callbench_run_processes_runs_each_n_as_its_group(
    run_harness: Callable[..., HarnessRun],
) -> None:
    done = run_harness("--only", "python-numpy", "--processes", "2", "--calls", "3000")
    assert done.returncode == 0, done.stderr[-2000:]
    record = done.records["python-numpy@2"]
    assert record.status == "ok", record.error
    assert record.sweep == {"kind": "processes", "value": 2}
    assert (record.processes, record.callers_verified) == (2, 2)
    samples = record.latency_samples()
    assert samples is not None and samples.shape == (2 * 3000,)
