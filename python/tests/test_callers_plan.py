"""bench's callers sweep takes each runtime's fastest row that takes callers, in each
language, with its callers-only twins, at 1, the cores and twice them; processes for the
languages served that way."""

from __future__ import annotations

from dataclasses import replace

from callbench.harness.load.callers_plan import affordable, caller_counts, plan
from callbench.harness.load.sweep_plan import MIN_ROUNDS
from callbench.registry import DRIVERS, lookup
from tests.test_report import driver


def test_the_counts_are_one_the_cores_and_twice_them_with_powers_of_two_between() -> None:
    assert caller_counts(2) == [1, 2, 4]
    assert caller_counts(1) == [1, 2]
    assert caller_counts(16) == [1, 2, 4, 8, 16, 32]
    assert caller_counts(6) == [1, 2, 4, 6, 12]


def test_each_runtimes_fastest_row_of_each_language_takes_part_with_its_twins() -> None:
    ran = {  # µs a call in the main group
        "python-onnxruntime": 6.0, "python-onnxruntime-iobinding": 5.0,
        "python-eager-inference": 20.0, "python-numpy": 3.0, "cpp-onnxruntime": 2.0,
        "cpp-onnxruntime-reuse": 1.0, "cpp-handwritten": 0.01, "java-onnxruntime-reuse": 3.0,
        "independent-python-onnxruntime-threads": 4.0,
    }  # fmt: skip
    done = [driver(i, [us * 1000] * 3, runtime=lookup(i).runtime) for i, us in ran.items()]
    done.append(replace(driver("cpp-openvino-static", [900.0] * 3), status="failed"))
    planned = plan(DRIVERS, done, cores=2)
    assert planned.counts == [1, 2, 4]
    # Not python-onnxruntime (slower than its iobinding row), python-numpy (one caller),
    # the floor, the independent caller, a failed row.
    assert [s.id for s in planned.threads] == [
        "python-eager-inference", "python-onnxruntime-iobinding",
        "python-onnxruntime-iobinding-sessions", "cpp-onnxruntime-reuse",
        "cpp-onnxruntime-reuse-sessions", "java-onnxruntime-reuse",
        "java-onnxruntime-reuse-sessions",
    ]  # fmt: skip
    assert [s.id for s in planned.processes] == ["python-eager-inference",
                                                 "python-onnxruntime-iobinding"]  # fmt: skip


def test_a_twin_without_its_runtimes_row_does_not_take_part() -> None:
    done = [driver("cpp-onnxruntime-reuse-sessions", [1000.0] * 3, runtime="onnxruntime")]
    assert plan(DRIVERS, done, cores=2).threads == []


def test_a_users_large_model_runs_the_points_its_call_affords_with_fewer_rounds() -> None:
    # A ResNet-50's 0.1 s call, on 2 cores: one caller and 2 callers make calls of 0.1 s
    # (10 rounds fit the point's budget), 4 callers calls of 0.2 s (5 rounds).
    resnet = [driver("cpp-onnxruntime-reuse", [0.08e9] * 3), driver("rust-tract", [0.1e9] * 3)]
    afford = affordable(resnet, cores=2, asked=21)
    assert afford.rounds == {1: 10, 2: 10, 4: 5} and afford.skipped == []
    # A call of 1.5 s: 2 callers on one core would make it 3 s, past the 2 s budget.
    slow = affordable([driver("rust-tract", [1.5e9] * 3)], cores=1, asked=21)
    assert slow.rounds == {1: MIN_ROUNDS}
    assert slow.skipped == ["2 callers: a call would take up to 3 s (2 callers on 1 core, "
                            "1.5 s at one), past the 2 s budget"]  # fmt: skip
    # A small model's: 1, the cores and twice them (no powers of two between), 11 rounds.
    small = affordable([driver("rust-tract", [5e3] * 3)], cores=16, asked=21)
    assert small.rounds == {1: 11, 16: 11, 32: 11}
