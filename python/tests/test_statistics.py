"""Intervals, ratios, calibration and flagging on synthetic samples."""

from __future__ import annotations

import pytest

from callbench.harness import planning
from callbench.records import stats


def test_the_median_interval_holds_the_median_and_narrows_with_samples() -> None:
    few = [10.0, 11.0, 9.0, 10.5, 9.5, 10.2, 9.8]
    many = few * 5
    low, high = stats.median_interval(few)
    assert low <= stats.median(few) <= high
    low_many, high_many = stats.median_interval(many)
    assert high_many - low_many <= high - low


def test_too_few_samples_give_their_range() -> None:
    assert stats.median_interval([3.0, 5.0]) == (3.0, 5.0)
    assert stats.median_interval([4.0]) == (4.0, 4.0)


def test_paired_ratio_cancels_drift_that_hits_both() -> None:
    drift = [1.0, 1.3, 0.8, 1.1, 1.25, 0.9, 1.05]
    a = [2.0 * d for d in drift]
    b = [1.0 * d for d in drift]
    ratio, (low, high) = stats.paired_ratio(a, b)
    assert ratio == pytest.approx(2.0) and low == pytest.approx(2.0) and high == pytest.approx(2.0)


def test_ratio_of_medians_interval_excludes_one_for_a_real_change() -> None:
    a = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8]
    b = [x * 1.5 for x in a]
    ratio, (low, _) = stats.ratio_of_medians(a, b)
    assert ratio == pytest.approx(1.5) and low > 1.0
    same, (low_same, high_same) = stats.ratio_of_medians(a, list(reversed(a)))
    assert low_same <= 1.0 <= high_same and same == pytest.approx(1.0)


def test_wide_flags_a_scattered_median() -> None:
    assert not stats.wide([100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8])
    assert stats.wide([100.0, 150.0, 60.0, 130.0, 80.0, 120.0, 70.0])


def test_calibration_grows_calls_until_a_round_takes_its_time() -> None:
    asked: list[int] = []

    def time_round(calls: int) -> int:
        asked.append(calls)
        return calls * 2_000  # 2 µs a call

    calls = planning.calibrate(time_round, max_calls=1_000_000, target_ns=100e6)
    assert asked[0] == 1 and asked == sorted(asked)
    assert 0.7 * 100e6 <= calls * 2_000 <= 1.5 * 100e6


def test_calibration_is_not_fixed_by_one_stalled_round() -> None:
    # The first round of one call stalls (a copy descheduled): timed again, it is 2 µs.
    stalls = iter([200e6])

    def time_round(calls: int) -> int:
        return int(next(stalls, calls * 2_000))

    calls = planning.calibrate(time_round, max_calls=1_000_000, target_ns=100e6)
    assert 0.7 * 100e6 <= calls * 2_000 <= 1.5 * 100e6


def test_calibration_stops_at_the_calls_the_inputs_allow() -> None:
    assert planning.calibrate(lambda calls: calls, max_calls=50, target_ns=1e9) == 50


def test_round_order_gives_every_driver_every_round_reproducibly() -> None:
    items = list("abcdefgh")
    orders = [planning.round_order(items, r, seed=3) for r in range(5)]
    assert all(sorted(o) == items for o in orders)
    assert len({tuple(o) for o in orders}) > 1
    assert orders == [planning.round_order(items, r, seed=3) for r in range(5)]


@pytest.mark.parametrize(
    ("ns", "cpu", "steal", "threads", "flagged"),
    [
        (1000, 990, 0, 1, False),
        (1000, 500, 0, 1, True),
        (1000, 500, 0, 2, False),  # several threads: CPU time says nothing alone
        (1000, 1000, 100, 1, True),
        (1000, None, None, 1, False),
    ],
)
def test_flagging(ns: int, cpu: int | None, steal: int | None, threads: int, flagged: bool) -> None:
    assert (planning.flag(ns, cpu, steal, threads) is not None) == flagged


@pytest.mark.parametrize(("ratio", "flagged"), [(None, False), (1.05, False), (1.3, True)])
def test_a_round_after_a_slow_contention_probe_is_flagged(
    ratio: float | None, flagged: bool
) -> None:
    why = planning.flag(1000, 1000, 0, 1, ratio)
    assert (why is not None) == flagged
    assert why is None or "core contended: probe x1.30" in why
