"""N copies of a driver serving one schedule (harness/load/dealing.py): round-robin, a stalled
copy delays the arrivals dealt to it; under a shared counter, only its own call, the free copy
serving the rest; every copy's outputs checked, a failing copy named and every copy ended."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from callbench.harness import processes
from callbench.harness.copies import Copies
from callbench.harness.load import dealing, serving
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverProcess
from callbench.harness.run import check_models
from tests.test_serving import CALLERS_DRIVER, callers_spec, run_folder, short_points

__all__ = ["short_points"]  # the fixture, used here too

ARRIVALS, GAP_NS, STALL_NS, STALL_AT = 200, 1_000_000, 50_000_000, 20
LEAD_NS = 200_000_000


@pytest.fixture
def copies(request: pytest.FixtureRequest, small_models: Path, tmp_path: Path) -> Iterator[Copies]:
    """Two copies of the callers' test driver in MODE (the test's parameter), ready."""
    mode: str = request.param

    def start(folder: Path) -> DriverProcess:
        return DriverProcess(
            [sys.executable, str(CALLERS_DRIVER), mode, "python-callers",
             "--models", str(small_models), "--calls", str(ARRIVALS), "--warmup", "5",
             "--serve", "--outputs", str(folder / "outputs.f32"),
             "--latencies", str(folder / "latencies.i64")],
            dict(os.environ), folder, None,
        )  # fmt: skip

    made = Copies.start(2, tmp_path, start)
    try:
        made.event("ready", 120.0)
        yield made
    finally:
        made.kill()


def served(copies: Copies, deal: str) -> dealing.Dealt:
    """ARRIVALS arrivals GAP_NS apart, LEAD_NS ahead, served by the copies dealt by ``deal``."""
    offsets = GAP_NS * np.arange(ARRIVALS, dtype="<i8")
    schedule = copies.workdir / "arrivals.i64"
    offsets.tofile(schedule)
    start = time.monotonic_ns() + LEAD_NS
    return dealing.serve_point(copies, schedule, offsets, start, deal, 60.0)


@pytest.mark.parametrize("copies", ["copy-1-stall-at-call-10"], indirect=True)
def test_round_robin_a_stalled_copy_delays_the_arrivals_dealt_to_it(
    copies: Copies, small_models: Path
) -> None:
    done = served(copies, dealing.ROUND_ROBIN)
    assert (done.copy_of == np.arange(ARRIVALS) % 2).all()
    assert done.answer["copy_calls"] == [ARRIVALS // 2] * 2 and done.answer["calls"] == ARRIVALS
    started = done.times.started
    stalled = 1 + 2 * 10  # copy 1's eleventh arrival
    assert started[stalled] < STALL_NS // 2 <= done.times.ended[stalled]
    # The arrivals dealt to copy 1 in the stall wait for it; copy 0's, dealt between, do not.
    behind = np.arange(stalled + 2, stalled + STALL_NS // GAP_NS - 10, 2)
    assert (started[behind] >= STALL_NS - (behind - stalled) * GAP_NS).all()
    assert (started[behind - 1] < STALL_NS // 2).all()
    # Each copy's outputs hold its own arrivals, in its own order: each checks.
    assert [check()[1] for check in finished(copies, done, dealing.ROUND_ROBIN, small_models)] == [
        None,
        None,
    ]


@pytest.mark.parametrize("copies", [f"stall-at-call-{STALL_AT}"], indirect=True)
def test_under_a_shared_counter_a_stalled_copy_delays_only_its_own_call(
    copies: Copies, small_models: Path
) -> None:
    done = served(copies, dealing.SHARED)
    assert sum(done.answer["copy_calls"]) == ARRIVALS and done.answer["calls"] == ARRIVALS
    started, ended = done.times.started, done.times.ended
    assert ended[STALL_AT] - started[STALL_AT] >= STALL_NS
    # The stalled copy is asleep: the other copy takes every arrival in the stall, on time.
    behind = np.arange(STALL_AT + 1, STALL_AT + STALL_NS // GAP_NS - 10)
    assert (done.copy_of[behind] != done.copy_of[STALL_AT]).all()
    assert (started[behind] < STALL_NS // 2).all()
    # Each copy's outputs hold the slots it served: each checks against the reference's.
    assert [check()[1] for check in finished(copies, done, dealing.SHARED, small_models)] == [
        None,
        None,
    ]


def finished(copies: Copies, done: dealing.Dealt, deal: str, models: Path) -> list[dealing.Check]:
    """The copies ended (their outputs written), and each copy's check of them."""
    copies.finish(60.0)
    return dealing.copy_checks(copies, deal, done.copy_of, ARRIVALS, check_models(models), 1)


def serve(mode: str, small_models: Path, tmp_path: Path, deal: str | None = None) -> serving.Record:
    options = RunOptions(models=small_models, warmup=5, pin=False)
    return serving.serve_row(callers_spec(mode), 1, options, run_folder(tmp_path),
                             check_models(small_models), 1e6, "a test's", processes=2,
                             deal=deal)  # fmt: skip


@pytest.mark.parametrize("deal", ["shared", "round-robin"])
def test_two_processes_are_served_at_a_rate_every_copy_checked(
    deal: str, small_models: Path, tmp_path: Path
) -> None:
    record = serve("ok", small_models, tmp_path, dealing.DEALS[deal])
    assert record.status == "ok", record.error
    assert (record.processes, record.callers) == (2, 2)
    assert record.sweep == {"kind": "serving", "value": 2}
    found = record.serving
    assert found is not None and found["deal"] == dealing.DEALS[deal]
    assert record.callers_verified == 2 and found["closed_calls_per_s"] > 0
    # Every point served by both copies; the rate is None when a busy host kept no point
    # within the bound (the search's figures, not this test's).
    assert all(len(p["caller_calls"]) == 2 for p in found["points"])
    assert found["rate"] is None or found["rate"] in found["repeat_rates"]
    assert len(record.notes["process_peak_rss_bytes"]) == 2


def test_a_python_row_is_dealt_by_a_shared_counter_a_node_one_round_robin() -> None:
    assert dealing.deal_for("python", None) == dealing.SHARED
    assert dealing.deal_for("node", None) == dealing.ROUND_ROBIN
    assert dealing.deal_for("node", dealing.SHARED) == dealing.SHARED
    assert dealing.why_not("node", dealing.SHARED) is not None
    assert dealing.why_not("python", dealing.ROUND_ROBIN) is None


def test_wrong_outputs_in_one_copy_fail_the_row_naming_it(
    small_models: Path, tmp_path: Path
) -> None:
    record = serve("copy-1-wrong-in-caller-0", small_models, tmp_path)
    assert record.status == "failed" and record.error is not None
    assert record.error.startswith("process 1: "), record.error


def test_a_failing_copy_is_named_and_every_copy_ended(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    real = Copies.start

    def watched(n: int, workdir: Path, start: object) -> Copies:
        made = real(n, workdir, start)  # type: ignore[arg-type]
        started.extend(made.pids())
        return made

    monkeypatch.setattr(Copies, "start", watched)
    record = serve("copy-1-fail-in-caller-0", small_models, tmp_path)
    assert record.status == "failed" and record.error is not None
    assert record.error.startswith("process 1: "), record.error
    assert len(started) == 2
    assert [pid for pid in started if Path(f"/proc/{pid}").exists()] == []
    assert not processes.LIVE


def test_a_rows_copies_are_recorded_beside_its_threads(tmp_path: Path) -> None:
    from callbench.records.store import load_run, write_record
    from tests.test_report_serving import served as served_record

    run_dir = run_folder(tmp_path)
    threads = served_record("python-x", "Python", 2, 6e4)
    copies = served_record("python-x", "Python", 2, 7e4)
    copies.processes = 2
    write_record(run_dir, threads)
    write_record(run_dir, copies)
    found = load_run(run_dir).sweeps["serving"][2]
    assert sorted(r.processes for r in found) == [1, 2]
