"""bench's serving phase's coarse rows: fewer searches and shorter windows, said in the
record; a batcher pass's row served as a curve only, then dropped without a record; one
caller of several intra-op threads in a folder of its own."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from callbench.harness.load import (
    dynamic_batcher,
    rate_repeats,
    rate_windows,
    rows_in_turn,
    serving,
)
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models
from callbench.records.store import load_run
from tests.test_serving import callers_spec, run_folder, short_points

__all__ = ["short_points"]  # the fixture: a few hundred arrivals a point


@pytest.fixture(autouse=True)
def short_coarse_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rate_windows, "COARSE_WINDOW_S", 0.004)
    monkeypatch.setattr(rate_windows, "COARSE_POINT_MAX_S", 0.25)


def coarse_row(
    models: Path, run_dir: Path, bound_ns: float = 1e7, threads: int = 1, **given: Any
) -> serving.RowAtRate:
    """The test driver's row at one caller, coarse, its bound ``bound_ns``."""
    options = RunOptions(models=models, warmup=5, pin=False, threads=threads)
    return serving.RowAtRate(callers_spec("ok"), 1, options, run_dir, check_models(models),
                             bound_ns, "a test's", coarse=True, **given)  # fmt: skip


def batcher_pass(models: Path, run_dir: Path, bound_ns: float) -> serving.RowAtRate:
    """bench's coarse pass over the test driver at B 2 and 4 (D 100 µs), bound ``bound_ns``."""
    from callbench.cli.phases.serving import _batcher_pass
    from callbench.harness.load.serving_plan import ServingPoint

    spec = callers_spec("ok")
    points = [ServingPoint(spec, 1, batcher=dynamic_batcher.Batcher(b, 100)) for b in (2, 4)]

    def row_of(point: ServingPoint, skip: str | None) -> serving.RowAtRate:
        return coarse_row(models, run_dir, bound_ns, skip=skip, batcher=point.batcher)

    return _batcher_pass(points, row_of, lambda row: nullcontext(), bound_ns)


def test_a_coarse_row_says_its_searches_and_windows(small_models: Path, tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path)
    row = coarse_row(small_models, run_dir)
    [record] = rows_in_turn.serve_in_turn([row], lambda row: nullcontext())
    assert record.status == "ok", record.error
    found = record.serving
    assert found is not None and found["coarse"] is True
    assert found["repeats"] == rate_repeats.COARSE_REPEATS == len(found["repeat_rates"])
    assert found["windows_rule"]["window_s"] == 0.004
    assert found["windows_rule"]["point_max_s"] == 0.25
    assert "75% coverage, not 95%" in found["interval_method"]


def test_a_batcher_pass_row_gives_its_curve_rate_and_leaves_nothing(
    small_models: Path, tmp_path: Path
) -> None:
    run_dir = run_folder(tmp_path)
    row = coarse_row(small_models, run_dir, batcher=dynamic_batcher.Batcher(4, 100))
    row.begin()
    live = row._live
    assert live is not None and live.process is not None
    rate = row.curve_rate()
    assert rate is not None and rate > 0
    row.drop()
    assert row.ended and live.process is None and row.curve_rate() is None
    assert list(run_dir.rglob("sweep-*")) == []  # no record, no folder


def test_one_caller_of_intra_op_threads_is_a_row_of_its_own(
    small_models: Path, tmp_path: Path
) -> None:
    run_dir = run_folder(tmp_path)
    spec = callers_spec("ok")
    rows = [coarse_row(small_models, run_dir, threads=t, repeats=1) for t in (1, 2)]
    assert [r.label for r in rows] == [f"{spec.id} x1", f"{spec.id} x1 at 2 intra-op threads"]
    records = rows_in_turn.serve_in_turn(rows, lambda row: nullcontext())
    assert [r.status for r in records] == ["ok", "ok"], [r.error for r in records]
    run = load_run(run_dir)
    assert sorted(run.sweeps["serving"]) == [1]
    assert sorted(r.threads for r in run.sweeps["serving"][1]) == [1, 2]
    assert (run_dir / "sweep-serving" / "1-intra-op2" / f"{spec.id}.json").is_file()


def test_a_batcher_pass_that_passes_nothing_is_recorded_skipped_saying_why(
    small_models: Path, tmp_path: Path
) -> None:
    run_dir = run_folder(tmp_path)
    spec = callers_spec("ok")
    row = batcher_pass(small_models, run_dir, 1.0)  # a bound of 1 ns: no point can pass it
    assert row.ended and row.record.status == "skipped"
    assert "no batcher's curve (B 2 D 100 us, B 4 D 100 us" in (row.record.error or "")
    assert (run_dir / "sweep-serving" / "1-batcher-b4-d100" / f"{spec.id}.json").is_file()
    assert not (run_dir / "sweep-serving" / "1-batcher-b2-d100").exists()


def test_a_batcher_pass_chooses_the_curve_that_passed_most_after_its_other_delays(
    small_models: Path, tmp_path: Path
) -> None:
    run_dir = run_folder(tmp_path)
    row = batcher_pass(small_models, run_dir, 1e7)
    assert not row.ended and row.batcher is not None
    # Both B at D 100 µs, then the better B at a delay of 0.3 of the 10 ms bound.
    tried = [(c["batch"], c["max_delay_us"]) for c in row.chosen_from]
    assert tried[:2] == [(2, 100), (4, 100)] and tried[2][1] == 3000 and len(tried) == 3
    best = max(row.chosen_from, key=lambda c: c["curve_rate"] or 0.0)
    assert (row.batcher.batch, row.batcher.max_delay_us) == (best["batch"], best["max_delay_us"])
    assert list(run_dir.rglob("sweep-*")) == []  # the pass left no record
