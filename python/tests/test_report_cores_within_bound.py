"""The report's "How best to use the cores, within the bound": per language each way served,
the answer only where intervals are apart, else the way that asks less."""

from __future__ import annotations

from callbench.records.record import Record
from callbench.report.sections import cores_within_bound
from tests.test_report_serving import with_repeats


def way(row: str, rates: list[float], callers: int = 1, **fields: object) -> Record:
    record = with_repeats(row, rates, repeats=len(rates))
    record.language = "Python"
    record.callers = callers
    record.sweep = {"kind": "serving", "value": callers}
    assert record.serving is not None
    record.serving |= fields
    return record


def lines(text: str) -> dict[str, list[str]]:
    return {ln.split(" | ")[1]: ln.split(" | ") for ln in text.splitlines()
            if ln.startswith("| Python")}  # fmt: skip


def test_a_way_apart_from_the_runner_up_is_the_answer() -> None:
    one = way("python-onnxruntime-iobinding", [5e4, 6e4, 5.5e4])
    threads = way("python-onnxruntime-iobinding", [9e4, 1e5, 9.5e4], callers=2)
    batcher = way("python-onnxruntime-iobinding", [1.5e5, 1.8e5, 1.6e5],
                  batcher={"batch": 16, "max_delay_us": 100, "gathered": True, "call": "x",
                           "drained_per_s": [4e5]},
                  closed_calls_per_s=4e5, coarse=True)  # fmt: skip
    text = cores_within_bound.section({1: [one, batcher], 2: [threads]})
    assert text is not None
    assert (
        "**1 caller through a batcher, B 16, D 100 µs, gathered** serves the most: "
        "160,000 [150,000–180,000]"
    ) in text
    assert "the runner-up, 2 callers in threads, the model shared (95,000 [90,000–100,000])" in text
    assert "3 searches: their smallest to largest, 75%" in text and "coarse mode" in text
    shown = lines(text)
    assert list(shown) == ["1 caller through a batcher, B 16, D 100 µs, gathered",
                           "2 callers in threads, the model shared", "1 caller"]  # fmt: skip
    assert shown["1 caller"][8] == "nothing"
    assert "400,000 (bursts drained)" in shown[
        "1 caller through a batcher, B 16, D 100 µs, gathered"][9]  # fmt: skip


def test_overlapping_ways_give_the_answer_to_the_one_that_asks_less() -> None:
    threads = way("python-onnxruntime-iobinding", [9e4, 1.1e5, 1e5], callers=2)
    copies = way("python-onnxruntime-iobinding", [9.5e4, 1.2e5, 1.05e5])
    copies.processes = 2
    text = cores_within_bound.section({2: [threads, copies]})
    assert text is not None
    assert (
        "2 processes (105,000 [95,000–120,000]) and 2 callers in threads, the model "
        "shared (100,000 [90,000–110,000]) overlap: **2 callers in threads, the model "
        "shared** is the answer"
    ) in text
    assert "coarse mode" not in text


def test_no_served_row_no_section_and_none_within_says_so() -> None:
    assert cores_within_bound.section(None) is None
    none = way("python-onnxruntime-iobinding", [0.0, 0.0, 0.0])
    assert none.serving is not None
    none.serving["rate"] = None
    text = cores_within_bound.section({1: [none]})
    assert text is not None and "no way served any rate within the bound" in text
