"""Every Python driver end to end through the harness, outputs verified."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from callbench.catalogue_python import DRIVERS
from tests.conftest import HarnessRun, assert_verified

IDS = [d.id for d in DRIVERS]


def test_catalogue_has_the_design_ids() -> None:
    for driver_id in ("python-eager", "python-torchscript", "python-onnxruntime", "python-numpy"):
        assert driver_id in IDS


@pytest.mark.parametrize("batch", [1, 5])
def test_every_python_driver_is_verified_ok(
    run_harness: Callable[..., HarnessRun], batch: int
) -> None:
    run = run_harness("--language", "python", "--calls", "300", "--warmup", "10",
                      "--repeats", "2", "--batch", str(batch))  # fmt: skip
    assert set(run.records) == set(IDS)
    assert_verified(run, IDS, repeats=2, batch=batch)
    assert all(record["peak_rss_mb"] > 0 for record in run.records.values())
    assert run.env["cores"] >= 1 and run.env["packages"]["torch"]


def test_latency_percentiles_where_calls_take_microseconds(
    run_harness: Callable[..., HarnessRun],
) -> None:
    run = run_harness(
        "--only", "python-eager", "--calls", "200", "--warmup", "10", "--repeats", "1"
    )
    latency = run.records["python-eager"]["latency_ns"]
    # An eager module call costs several microseconds on any machine this runs on.
    assert latency is not None and latency["p50"] <= latency["p90"] <= latency["p99"]


def test_threads_option_reaches_the_record(run_harness: Callable[..., HarnessRun]) -> None:
    run = run_harness("--only", "python-onnxruntime", "--calls", "50", "--repeats", "1",
                      "--threads", "2")  # fmt: skip
    record = run.records["python-onnxruntime"]
    assert record["status"] == "ok" and record["threads"] == 2
