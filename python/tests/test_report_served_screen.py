"""The first screen's served answer: per language the way that serves the most within the
bound (apart from the runner-up, else the one asking less), its rate over one caller's with
the interval the two repeats' ranges allow, and what decides read from the run's figures."""

from __future__ import annotations

from typing import Any

from callbench.records.record import Record, Round
from callbench.report.sections import served_screen
from tests.test_report_cores_within_bound import way
from tests.test_report_serving import spread

BATCHER = {"batch": 16, "max_delay_us": 100, "gathered": True, "call": "x",
           "drained_per_s": [4e5]}  # fmt: skip


def timed(record: Record, wait_ns: float, service_ns: float, busy: float) -> Record:
    """``record`` with wait and service at its rate found and its closed loop's CPU time."""
    assert record.serving is not None
    at: dict[str, Any] = next(p for p in reversed(record.serving["points"])
                              if p["within"] and p["rate"] == record.serving["rate"])  # fmt: skip
    at["times"] = {"wait": spread(wait_ns), "service": spread(service_ns)}
    at["p99_ns"] = wait_ns + service_ns
    record.rounds = [Round(i, 1000, 10_000_000, cpu_ns=int(busy * 10_000_000))
                     for i in range(5)]  # fmt: skip
    return record


def row(text: str) -> list[str]:
    found = [ln for ln in text.splitlines() if ln.startswith("| Python")]
    assert len(found) == 1
    return [c.strip() for c in found[0].strip("|").split("|")]


def test_a_batcher_apart_is_the_answer_and_its_wait_decides() -> None:
    one = timed(way("python-r", [5e4, 6e4, 5.5e4]), 30_000, 20_000, 1.0)
    threads = way("python-r", [9e4, 1e5, 9.5e4], callers=2)
    batcher = timed(way("python-r", [1.5e5, 1.8e5, 1.6e5], batcher=BATCHER,
                        closed_calls_per_s=4e5), 600_000, 50_000, 0.9)  # fmt: skip
    text = served_screen.table({1: [one, batcher], 2: [threads]}, cores=2)
    assert text is not None
    cells = row(text)
    assert cells[1] == "1 caller through a batcher, B 16, D 100 µs, gathered: `python-r`"
    assert cells[2] == "160,000 [150,000–180,000]"
    # 160,000 / 55,000 one caller; its interval 150,000 / 60,000 to 180,000 / 50,000.
    assert cells[3] == "2.91× (2.50–3.60)"
    assert cells[4] == "650"
    assert cells[5] == ("the wait (the queue and the batcher's hold) sets the p99: wait 600 µs, "
                        "service 50.00 µs; 40% of its closed loop's 400,000 a second, which keeps "
                        "0.9 of 2 cores busy")  # fmt: skip


def test_overlapping_ways_name_the_one_asking_less_and_the_overlap() -> None:
    one = timed(way("python-r", [9e4, 1.1e5, 1e5]), 10_000, 40_000, 1.0)
    threads = way("python-r", [9.5e4, 1.2e5, 1.05e5], callers=2)
    text = served_screen.table({1: [one], 2: [threads]}, cores=2)
    assert text is not None
    cells = row(text)
    assert cells[1] == "1 caller: `python-r`" and cells[3] == "(one caller)"
    assert cells[5].startswith("the call sets the p99: wait 10.00 µs, service 40.00 µs; ")
    assert cells[5].endswith("its interval overlaps that of 2 callers in threads, the model shared "
                             "(105,000 [95,000–120,000])")  # fmt: skip


def test_one_caller_that_served_nothing_leaves_no_ratio_and_none_served_says_so() -> None:
    one = way("python-r", [0.0, 0.0, 0.0])
    threads = way("python-r", [9e4, 1e5, 9.5e4], callers=2)
    text = served_screen.table({1: [one], 2: [threads]}, cores=2)
    assert text is not None and row(text)[3] == "–"
    # Two callers' points kept no wait and service, their rounds no CPU time: the closed
    # loop's share alone is read.
    assert row(text)[5] == ("95% of its closed loop's 100,000 a second; the only way within "
                            "the bound (1 other served nothing within it)")  # fmt: skip
    skipped = way("python-r", [9e4], callers=2)
    skipped.status, skipped.serving = "skipped", None
    alone = served_screen.table({2: [threads, skipped]}, cores=2)
    assert alone is not None and row(alone)[5].endswith(
        "the only way within the bound (1 other recorded as skipped, each saying why)"
    )
    for record in (one, threads):
        assert record.serving is not None
        record.serving["rate"] = None
    text = served_screen.table({1: [one], 2: [threads]}, cores=2)
    assert text is not None
    assert row(text)[1:3] == ["none within the bound", "0"]
    assert served_screen.table(None, cores=2) is None


def test_the_head_names_the_bound_and_how_the_rates_were_found() -> None:
    coarse = way("python-r", [9e4, 1.1e5, 1e5], coarse=True)
    head = served_screen.head({1: [coarse]})
    assert head.startswith("Poisson arrivals, p99 within **1 ms** (our MLP's bound (1 ms))")
    assert "3 searches [their smallest to largest: 75% coverage] in bench's coarse mode" in head


def test_a_phase_that_served_no_way_says_so_quoting_the_cheapest_estimate() -> None:
    # A call of tens of ms: every way's points past the budget, each recorded as skipped.
    ways = []
    for seconds, row_id in ((700, "python-a"), (482, "python-b")):
        skipped = way(row_id, [1.0])
        skipped.status, skipped.serving = "skipped", None
        skipped.error = (f"past the serving phase's budget of 6 min (it would take about "
                         f"{seconds} s, 30 s a rate point)")  # fmt: skip
        ways.append(skipped)
    said = served_screen.none_served({1: ways})
    assert said is not None
    assert said.startswith("its serving phase served none of its 2 ways: each was recorded as")
    assert "about 482 s" in said and "(`python-b`)" in said and "700" not in said
    assert served_screen.table({1: ways}, cores=2) is None
    served = way("python-c", [9e4, 1e5, 9.5e4])
    assert served_screen.none_served({1: [*ways, served]}) is None
    assert served_screen.none_served(None) is None
