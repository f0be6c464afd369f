"""bench's serving phase plan: per language its one caller, its ways at the cores within
CONTENTION of the best one's closed loop, and its batcher pass, within a budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from callbench.harness.load import rate_repeats, rate_windows, ways_plan
from callbench.model import artifacts as art
from callbench.records.record import Record
from callbench.registry import DRIVERS, lookup
from tests.test_report import driver


def at(row: str, us: float, kind: str | None = None, value: int = 1) -> Record:
    """A verified record of ``row`` at ``us`` µs a call (all its callers together)."""
    sweep = {"kind": kind, "value": value} if kind else None
    return driver(row, [us * 1000] * 3, runtime=lookup(row).runtime, sweep=sweep)


@pytest.fixture
def models(tmp_path: Path) -> Path:
    (tmp_path / art.MANIFEST).write_text(json.dumps({"files": {}}))
    return tmp_path


def test_the_ways_within_contention_are_served_and_the_rest_recorded_as_left_out(
    models: Path,
) -> None:
    one = [at("python-onnxruntime-iobinding", 5.0), at("cpp-onnxruntime-reuse", 1.0)]
    swept = [
        at("python-onnxruntime-iobinding", 4.0, "callers", 2),  # 250,000/s
        at("python-onnxruntime-iobinding-sessions", 3.0, "callers", 2),  # 333,333/s: best
        at("python-onnxruntime-iobinding", 3.5, "processes", 2),  # 285,714/s
        at("python-onnxruntime-iobinding", 9.0, "intra-op", 2),  # 111,111/s: out
        at("python-onnxruntime", 4.5, "callers", 2),  # the same way, slower: not served
        at("cpp-onnxruntime-reuse", 0.6, "callers", 2),
    ]
    planned = ways_plan.plan(DRIVERS, one, swept, 2, 1e6, models)
    labels = [p.label for p in planned.rows]
    assert labels[:2] == ["python-onnxruntime-iobinding x1", "cpp-onnxruntime-reuse x1"]
    assert labels[2:4] == ["python-onnxruntime-iobinding-sessions x2", "cpp-onnxruntime-reuse x2"]
    assert sorted(labels[4:]) == ["python-onnxruntime-iobinding x2",
                                  "python-onnxruntime-iobinding x2 processes"]  # fmt: skip
    [(left, why)] = planned.not_served
    assert left.label == "python-onnxruntime-iobinding x1 at 2 intra-op threads"
    assert "out of contention" in why and "serve-rate" in why
    # The batcher pass: the best row at one caller at each B, D a tenth of the bound.
    python = planned.passes["python"]
    assert [(p.batcher.batch, p.batcher.max_delay_us) for p in python if p.batcher] == [
        (4, 100), (16, 100), (64, 100)]  # fmt: skip
    assert all(p.spec.id == "python-onnxruntime-iobinding" for p in python)


def test_past_the_budget_a_point_is_recorded_skipped_and_a_pass_is_said(models: Path) -> None:
    one = [at("python-onnxruntime-iobinding", 5.0), at("cpp-onnxruntime-reuse", 1.0)]
    swept = [at("python-onnxruntime-iobinding", 4.0, "callers", 2),
             at("cpp-onnxruntime-reuse", 0.6, "callers", 2)]  # fmt: skip
    budget = 3 * ways_plan.row_s(1e9 / 4e3, 0.005)  # three rows of 4 µs a call, loaded in 5 ms
    planned = ways_plan.plan(DRIVERS, one, swept, 2, 1e6, models, budget_s=budget)
    assert [p.label for p in planned.rows] == ["python-onnxruntime-iobinding x1",
                                               "cpp-onnxruntime-reuse x1",
                                               "python-onnxruntime-iobinding x2"]  # fmt: skip
    assert [p.label for p, _ in planned.not_served] == ["cpp-onnxruntime-reuse x2"]
    assert all("budget" in why for _, why in planned.not_served)
    assert planned.passes == {}
    assert len(planned.said) == 2 and all("batcher pass" in line for line in planned.said)
    assert planned.estimate_s <= budget


def test_on_one_core_each_language_serves_one_caller_and_its_batcher(models: Path) -> None:
    one = [at("python-onnxruntime-iobinding", 5.0)]
    planned = ways_plan.plan(DRIVERS, one, [], 1, 1e6, models)
    assert [p.label for p in planned.rows] == ["python-onnxruntime-iobinding x1"]
    assert list(planned.passes) == ["python"]


def test_way_names_say_how_the_cores_are_spent() -> None:
    point = ways_plan.ServingPoint
    row, twin = lookup("python-onnxruntime-iobinding"), lookup("go-onnxruntime-iobinding-sessions")
    assert ways_plan.way_name(point(row, 1), 4) == "1 caller"
    assert ways_plan.way_name(point(row, 4), 4) == "4 callers in threads, the model shared"
    assert ways_plan.way_name(point(twin, 4), 4) == "4 callers in threads, a model each"
    assert ways_plan.way_name(point(row, 1, 4), 4) == "4 processes"
    assert ways_plan.way_name(point(row, 1, threads=4), 4) == "1 caller, 4 intra-op threads"


def test_the_pass_tries_the_chosen_b_at_its_other_delays() -> None:
    row = lookup("cpp-onnxruntime-reuse")
    chosen = ways_plan.ServingPoint(row, 1, batcher=ways_plan.Batcher(16, 100, True))
    [other] = ways_plan.other_delays(chosen, 1e6)
    assert other.batcher == ways_plan.Batcher(16, 300, True) and other.spec is row


def test_a_slow_calls_way_costs_minutes_not_the_full_rules_eight() -> None:
    # A ResNet-50's 56 ms call here (about 18 a second in a closed loop): every coarse point
    # within COARSE_POINT_MAX_S and its lead, so a way costs its curve and searches of those.
    closed = 1e9 / 56e6
    point = ways_plan.point_s(closed)
    assert point <= rate_windows.COARSE_POINT_MAX_S + ways_plan.POINT_OVERHEAD_S
    points = len(rate_repeats.CURVE) + rate_repeats.COARSE_REPEATS * ways_plan.SEARCH_POINTS
    assert ways_plan.row_s(closed, 2.0) == pytest.approx(2.0 + ways_plan.CLOSED_S + points * point)
