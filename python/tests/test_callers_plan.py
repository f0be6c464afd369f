"""bench's callers sweep takes each runtime's fastest row that takes callers, in each
language, with its callers-only twins, at 1, the cores and twice them; processes for the
languages served that way."""

from __future__ import annotations

from dataclasses import replace

from callbench.harness.callers_plan import caller_counts, plan
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
    ]  # fmt: skip
    assert [s.id for s in planned.processes] == ["python-eager-inference",
                                                 "python-onnxruntime-iobinding"]  # fmt: skip


def test_a_twin_without_its_runtimes_row_does_not_take_part() -> None:
    done = [driver("cpp-onnxruntime-reuse-sessions", [1000.0] * 3, runtime="onnxruntime")]
    assert plan(DRIVERS, done, cores=2).threads == []
