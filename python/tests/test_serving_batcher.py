"""A row served at a rate through its kit's dynamic batcher (contract 7: harness/load/
dynamic_batcher.py): the driver loaded at B with --max-delay, the closed loop's capacity in
arrivals, every point's calls counted by the arrivals they took, the last point's outputs
checked sample by sample, the record beside the row's callers', and the report's way."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from callbench.harness.load import batcher_drain, dynamic_batcher, serving
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models
from callbench.languages.spec import DriverSpec
from callbench.records.store import load_run
from callbench.report.blocks import format as fmt
from callbench.report.sections import serving_at_a_rate
from callbench.report.sections.many_callers import calls
from callbench.report.sections.serving_way import calls_taken, way
from tests.test_serving import callers_spec, run_folder, short_points

__all__ = ["short_points"]  # the fixture: a few hundred arrivals a point

BATCHER = dynamic_batcher.Batcher(batch=4, max_delay_us=100)


def serve(
    spec: DriverSpec, models: Path, tmp_path: Path, batcher: dynamic_batcher.Batcher = BATCHER
) -> tuple[serving.Record, Path]:
    run_dir = run_folder(tmp_path)
    options = RunOptions(models=models, warmup=5, pin=False)
    # A bound of 10 ms: a busy host (the whole suite beside it) kept a 1 ms p99 out of reach
    # of every point once, and what is tested here is the record, not the rate.
    record = serving.serve_row(spec, 1, options, run_dir, check_models(models), 1e7,
                               "a test's", batcher=batcher)  # fmt: skip
    return record, run_dir


def test_a_row_is_served_through_its_batcher_every_call_counted(
    small_models: Path, tmp_path: Path
) -> None:
    record, run_dir = serve(callers_spec("ok"), small_models, tmp_path)
    assert record.status == "ok", record.error
    assert (record.batch, record.callers, record.callers_verified) == (4, 1, 1)
    assert record.sweep == {"kind": "serving", "value": 1, "batcher": BATCHER.to_json()}
    found = record.serving
    assert found is not None and found["batcher"]["batch"] == 4
    assert found["batcher"]["max_delay_us"] == 100 and found["batcher"]["call"]
    # Its capacity is the batcher's own closed loop: bursts drained B a call, their median.
    drains = found["batcher"]["drained_per_s"]
    assert len(drains) == batcher_drain.DRAINS and min(drains) > 0
    assert found["closed_calls_per_s"] == float(np.median(drains))
    for point in found["points"]:
        sizes = point["batch_sizes"]
        assert len(sizes) == 4 and sum(k * n for k, n in enumerate(sizes, 1)) == point["calls"]
    # Beside the row's callers, in a folder of its own; read back through the schema.
    folder = run_dir / "sweep-serving" / "1-batcher-b4-d100"
    assert (folder / f"{record.id}.json").is_file()
    (back,) = load_run(run_dir).sweeps["serving"][1]
    assert back.serving == found
    assert way(back).startswith("batcher B 4, D 100 µs (last point's calls: ")
    # The report's closed loop for it is in requests, as its rate is: the bursts drained.
    shown = serving_at_a_rate.cells(back)
    assert (
        shown["closed loop calls a second"] == f"{calls(float(np.median(drains)))} (bursts drained)"
    )
    rate = found["rate"]  # None where no point passed the bound
    ratio = f"{rate / float(np.median(drains)):.2f}" if rate else fmt.NOT_SHOWN
    assert shown["rate ÷ closed loop"] == ratio


def test_a_gathered_batcher_is_a_row_of_its_own_that_says_so(
    small_models: Path, tmp_path: Path
) -> None:
    # The Python callers test driver takes --gathered (its calls of n the forward over n).
    gathered = replace(BATCHER, gathered=True)
    record, run_dir = serve(callers_spec("ok"), small_models, tmp_path, gathered)
    assert record.status == "ok" and record.callers_verified == 1, record.error
    found = record.serving
    assert found is not None and found["batcher"]["gathered"] is True
    assert found["batcher"]["call"] == dynamic_batcher.GATHERED
    folder = run_dir / "sweep-serving" / "1-batcher-b4-d100-gathered"
    assert (folder / f"{record.id}.json").is_file()
    (back,) = load_run(run_dir).sweeps["serving"][1]
    assert way(back).startswith("batcher B 4, D 100 µs, gathered (last point's calls: ")


def test_wrong_outputs_through_the_batcher_fail_the_row(small_models: Path, tmp_path: Path) -> None:
    record, _ = serve(callers_spec("wrong-in-caller-0"), small_models, tmp_path)
    assert record.status == "failed" and record.callers_verified is None, record.error


def test_padding_counts_the_places_no_arrival_took() -> None:
    assert dynamic_batcher.padding([3, 0, 1, 2]) == 3 * 3 + 1 * 1
    assert dynamic_batcher.batchers([4, 16], [0, 200]) == [
        dynamic_batcher.Batcher(4, 0), dynamic_batcher.Batcher(4, 200),
        dynamic_batcher.Batcher(16, 0), dynamic_batcher.Batcher(16, 200),
    ]  # fmt: skip


def test_a_burst_holds_a_tenth_of_a_second_of_full_calls_within_its_limits() -> None:
    assert batcher_drain.burst_size(10_000.0, 4) == 4_000  # 0.1 s of calls of 4
    assert batcher_drain.burst_size(10.0, 4) == batcher_drain.LEAST_CALLS * 4
    assert batcher_drain.burst_size(1e9, 64) == batcher_drain.MOST_ARRIVALS


def test_a_burst_drains_at_its_arrivals_over_the_last_ones_end() -> None:
    ended = np.array([10, 10, 20, 20, 40_000], dtype=np.int64)  # ns from their due time, 0
    times = ArrivalTimes(np.zeros(5, np.int64), np.zeros(5, np.int64), ended)
    assert batcher_drain.drained_per_s(times) == 5 * 1e9 / 40_000


def test_a_batchers_way_lists_a_few_sizes_and_sums_many() -> None:
    # Near its capacity a batcher of 64 took 34 sizes at one point: the way says the calls
    # that took the most and the rest over their range, not a line of 34.
    assert calls_taken([0, 0, 2, 5]) == "2 of 3, 5 of 4"
    assert calls_taken([1, 0, 3, 4, 9]) == "9 of 5, 8 of 1–4"
    assert calls_taken([]) == ""
