"""A user's model's sweeps scale with its call: read from its batch-1 rows, never a point
whose call would pass the budget or need more samples than the inputs hold."""

from __future__ import annotations

from callbench.harness.load.sweep_plan import CALL_BUDGET_S, plan, sweepers
from tests.test_report import driver


def test_a_large_models_sweeps_stop_at_the_budget_and_the_inputs() -> None:
    resnet = driver("cpp-onnxruntime", [94e6] * 3, runtime="onnxruntime")  # 0.094 s a call
    planned = plan([resnet], samples=111)
    assert planned.batches == [1, 10]
    assert planned.thread_batch == int(CALL_BUDGET_S / 0.094)  # 21 samples a call
    assert planned.skipped[0] == (
        f"batch 100: a call would take up to 9.4 s (100 x 0.094 s at batch 1), past the "
        f"{CALL_BUDGET_S:g} s budget"
    )
    assert planned.skipped[1] == "batch 1,000: needs 1,000 samples a call; the inputs hold 111"
    assert len(planned.skipped) == 4  # 100, 1,000, 10,000, 100,000: each said once


def test_a_small_models_sweeps_go_as_far_as_the_inputs() -> None:
    mlp = driver("cpp-onnxruntime", [2000] * 3, runtime="onnxruntime")  # 2 µs a call
    planned = plan([mlp], samples=100_000)
    assert planned.batches == [1, 10, 100, 1000, 10_000, 100_000]
    assert planned.thread_batch == 1000 and planned.skipped == []
    fixed = plan([mlp], samples=100_000, fixed_batch=8)
    assert fixed.batches == [] and fixed.thread_batch == 8


def test_each_runtime_sweeps_with_its_fastest_row() -> None:
    rows = [driver("cpp-onnxruntime", [92e6] * 3, runtime="onnxruntime"),
            driver("node-onnxruntime", [91e6] * 3, runtime="onnxruntime-node"),
            driver("node-onnxruntime-web", [437e6] * 3, runtime="onnxruntime-web"),
            driver("rust-tract", [140e6] * 3, runtime="tract"),
            driver("rust-tract-state", [139e6] * 3, runtime="tract")]  # fmt: skip
    assert [r.id for r in sweepers(rows)] == ["node-onnxruntime", "rust-tract-state",
                                              "node-onnxruntime-web"]  # fmt: skip


def test_each_point_timed_sets_the_next_ones_estimate_and_slow_points_run_fewer_rounds() -> None:
    from callbench.harness.load.sweep_plan import MIN_ROUNDS, Measured, rounds_within

    # tract's ResNet-50: 62 ms a call at batch 1, but 1.5 s at batch 10 (0.15 s a sample):
    # batch 100 is then past the budget, and the thread sweep's batch is 13, not 32.
    seen = Measured(0.062)
    assert seen.fits(10) and seen.thread_batch(32) == 32
    seen.saw([driver("rust-tract", [1.5e9] * 3, batch=10)])
    assert seen.per_sample_s == 0.15 and not seen.fits(100) and seen.thread_batch(32) == 13
    seen.saw([driver("rust-tract", [0.1e9] * 3, batch=10)])  # a cheaper sample keeps the dearest
    assert seen.per_sample_s == 0.15
    # Rounds: all 21 while they take at most 10 s, fewer past that, never below 5.
    assert rounds_within(0.038, 21) == 21 and rounds_within(1.5, 21) == 6
    assert rounds_within(13 * 0.15, 21) == MIN_ROUNDS == rounds_within(60.0, 21)
    assert rounds_within(60.0, 3) == 3
