"""How best to use the cores: each language's best row at N = the cores runs again at as
many intra-op threads and batching at one thread (batch C and its runtime's best batch),
a point the batch sweep ran not run twice, a point past the budget or the inputs said."""

from __future__ import annotations

from typing import Any

from callbench.harness.load.cores_plan import best_batch, plan
from callbench.records.record import Record
from callbench.registry import DRIVERS, lookup
from tests.test_report import driver


def point(driver_id: str, kind: str, value: int, us: float, **fields: Any) -> Record:
    spec = lookup(driver_id)
    return driver(driver_id, [us * 1000] * 3, sweep={"kind": kind, "value": value},
                  runtime=spec.runtime, language=spec.language, **fields)  # fmt: skip


def test_each_languages_best_row_at_the_cores_runs_the_two_other_ways() -> None:
    one = {i: driver(i, [us * 1000] * 3, runtime=lookup(i).runtime)
           for i, us in (("python-onnxruntime-iobinding", 5.0), ("cpp-onnxruntime-reuse", 1.0),
                         ("cpp-openvino-static", 2.0))}  # fmt: skip
    swept = [
        point("python-onnxruntime-iobinding", "callers", 2, 4.0),
        # Python's best at 2 is its callers-only twin (a session per caller): at one caller
        # it is the row that shares one.
        point("python-onnxruntime-iobinding-sessions", "callers", 2, 3.0),
        point("python-onnxruntime-iobinding", "processes", 2, 3.5),
        point("cpp-onnxruntime-reuse", "callers", 2, 0.6),
        point("cpp-openvino-static", "callers", 2, 0.5),
        point("cpp-openvino-static", "callers", 4, 0.1),  # not at the cores
    ]
    # ONNX Runtime's most samples a second at batch 10,000 (C++'s row swept there), OpenVINO's
    # at 100.
    batch = [point("cpp-onnxruntime-reuse", "batch", 100, 20.0, batch=100),
             point("cpp-onnxruntime-reuse", "batch", 10_000, 1000.0, batch=10_000),
             point("cpp-openvino-static", "batch", 100, 10.0, batch=100),
             point("cpp-openvino-static", "batch", 10_000, 2000.0, batch=10_000)]  # fmt: skip
    assert best_batch(batch, "onnxruntime") == 10_000 and best_batch(batch, "openvino") == 100
    planned = plan(DRIVERS, one, swept, batch, cores=2, samples=100_000)
    assert [s.id for s in planned.rows] == ["cpp-openvino-static", "python-onnxruntime-iobinding"]
    assert planned.intra_op == 2 and planned.skipped == []
    # OpenVINO's best batch was its own point of the batch sweep: not run again.
    assert {b: [s.id for s in rows] for b, rows in planned.batches.items()} == {
        2: ["cpp-openvino-static", "python-onnxruntime-iobinding"],
        10_000: ["python-onnxruntime-iobinding"],
    }  # fmt: skip


def test_a_large_models_batching_stops_at_the_budget_and_the_inputs() -> None:
    # A ResNet-50's 0.1 s call on 16 cores: batch 16 would take up to 1.6 s (kept), and its
    # runtime's best batch, 100, more than the inputs' 64 samples.
    one = {"cpp-onnxruntime-reuse": driver("cpp-onnxruntime-reuse", [0.1e9] * 3)}
    swept = [point("cpp-onnxruntime-reuse", "callers", 16, 0.02e6)]
    batch = [point("cpp-onnxruntime-iobinding", "batch", 100, 5e6, batch=100)]
    planned = plan(DRIVERS, one, swept, batch, cores=16, samples=64)
    assert list(planned.batches) == [16] and planned.intra_op == 16
    assert planned.skipped == ["cpp-onnxruntime-reuse: batch 100: needs 100 samples a call; "
                               "the inputs hold 64"]  # fmt: skip
    slow = plan(DRIVERS, {"cpp-onnxruntime-reuse": driver("x", [0.5e9] * 3)}, swept, [],
                cores=16, samples=64)  # fmt: skip
    assert slow.batches == {} and slow.skipped == [
        "cpp-onnxruntime-reuse: batch 16: a call would take up to 8 s, past the 2 s budget"
    ]
    # One core: one caller is every way; no intra-op point.
    assert plan(DRIVERS, one, [point("cpp-onnxruntime-reuse", "callers", 1, 0.1e6)], [],
                cores=1, samples=64).intra_op == 0  # fmt: skip
