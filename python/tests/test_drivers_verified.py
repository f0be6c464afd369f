"""Every registered driver, run by the harness on the small models: its outputs match
the reference, at one sample a call and at a batch of three."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import torch

from callbench.cuda_probe import NO_CUPY
from callbench.harness.load.gpu_sweep import batch_one_only
from callbench.model import artifacts as art
from callbench.registry import DRIVERS, lookup
from callbench.roles import CALLERS_ONLY, GPU
from tests.conftest import SMALL_WIDTH, HarnessRun, assert_verified

# The seed's loops as written take one sample a call, as the seed did, and so do the rows
# marked batch_one(...) (torch.compile on the GPU compiles again per shape).
BATCH_ONE_ONLY = {d.id for d in DRIVERS if batch_one_only(d)}


@pytest.mark.parametrize("batch", [1, 3])
def test_every_available_driver_is_verified(
    run_harness: Callable[..., HarnessRun], batch: int
) -> None:
    run = run_harness("--calls", "120", "--rounds", "2", "--warmup", "10", "--batch", str(batch))
    assert run.returncode == 0, run.stderr
    # A callers-only row is its twin at one caller: test_callers.py verifies it at two.
    one_caller = [d for d in DRIVERS if CALLERS_ONLY not in d.roles]
    assert set(run.records) == {d.id for d in one_caller}
    ready = [d.id for d in one_caller if d.available() is None]
    if batch != 1:
        for driver_id in BATCH_ONE_ONLY & set(ready):
            record = run.records[driver_id]
            assert record.status == "failed" and f"{driver_id}: usage: " in str(record.error)
        ready = [i for i in ready if i not in BATCH_ONE_ONLY]
    assert_verified(run, ready, rounds=2, batch=batch)
    for driver_id in ready:
        record = run.records[driver_id]
        assert record.peak_rss_bytes is None or record.peak_rss_bytes > 0
        if not driver_id.startswith("independent-"):
            assert record.peak_rss_bytes, driver_id
    for driver_id in set(run.records) - set(ready) - BATCH_ONE_ONLY:
        assert run.records[driver_id].status == "skipped"
    assert forgotten_builds(run) == [], (
        "skipped with their toolchain on PATH: run `callbench build`"
    )


def forgotten_builds(run: HarnessRun) -> list[str]:
    """Skipped drivers whose toolchain is on PATH here: a build someone forgot, not a skip.

    A driver whose toolchain is absent may be skipped, and its record says what to install.
    """
    forgotten = []
    for driver_id, record in sorted(run.records.items()):
        if record.status != "skipped":
            continue
        if GPU in lookup(driver_id).roles:
            # A GPU row may be skipped only where torch sees no CUDA device (or CuPy is absent).
            no_cupy = str(record.error).startswith(NO_CUPY)
            if torch.cuda.is_available() and not no_cupy:
                forgotten.append(f"{driver_id}: {record.error} (a CUDA device is here)")
            continue
        missing = lookup(driver_id).missing_tool()
        if missing is None:
            forgotten.append(f"{driver_id}: {record.error}")
        else:
            assert f"no `{missing}` on PATH" in str(record.error), record.error
            assert "install" in str(record.error), record.error
    return forgotten


def test_the_floor_reports_its_own_memory(run_harness: Callable[..., HarnessRun]) -> None:
    """VmHWM of the driver itself: a few MB for C++, not the harness's Python."""
    run = run_harness("--only", "cpp-handwritten", "--only", "python-numpy", "--calls", "50",
                      "--rounds", "1")  # fmt: skip
    floor = run.records["cpp-handwritten"]
    if floor.status == "skipped":
        pytest.skip(str(floor.error))
    assert floor.peak_rss_bytes is not None and floor.peak_rss_bytes < 20 << 20
    numpy_row = run.records["python-numpy"]
    assert numpy_row.peak_rss_bytes is not None
    assert numpy_row.peak_rss_bytes != floor.peak_rss_bytes


def test_calibrated_rounds_are_sized_by_time(run_harness: Callable[..., HarnessRun]) -> None:
    run = run_harness("--only", "python-numpy", "--rounds", "3", "--round-time", "0.02",
                      "--warmup", "10")  # fmt: skip
    record = run.records["python-numpy"]
    assert record.status == "ok", record.error
    calls = {r.calls for r in record.rounds}
    assert len(calls) == 1 and 1 < calls.pop() <= 20_000
    assert run.env["protocol"] == {"name": "calibrated", "round_time_s": 0.02, "rounds": 3}


def test_widths_run_each_driver_at_each_width_against_its_reference(
    run_harness: Callable[..., HarnessRun], small_models: Path
) -> None:
    """`--widths 8,16`: the numpy floor reads its hidden width from the weights it loads,
    so one driver runs both models, each verified against its own width's reference; a
    driver whose artifact the family does not export is skipped at that width, saying so."""
    run = run_harness("--widths", f"8,{SMALL_WIDTH}", "--only", "python-numpy",
                      "--only", "python-aoti", "--calls", "200", "--rounds", "2",
                      "--warmup", "10")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert_verified(run, ["python-numpy@8", f"python-numpy@{SMALL_WIDTH}"], rounds=2, batch=1)
    wide = run.records[f"python-numpy@{SMALL_WIDTH}"]
    assert wide.sweep == {"kind": "width", "value": int(SMALL_WIDTH)}
    skipped = run.records[f"python-aoti@{SMALL_WIDTH}"]
    assert skipped.status == "skipped"
    assert skipped.error == f"width {SMALL_WIDTH} has no mlp.pt2 (not exported)"
    assert run.records["python-aoti@8"].status in ("ok", "skipped")
    assert run.run_dir is not None
    assert (run.run_dir / "sweep-width" / SMALL_WIDTH / "python-numpy.json").is_file()
    manifest = json.loads((small_models / art.family_folder(16) / art.MANIFEST).read_text())
    assert manifest["model"].startswith("MLP 2-16-16-1")
