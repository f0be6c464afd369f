"""A rate point cut into windows, and whether its windows agree."""

from __future__ import annotations

import numpy as np
import pytest

from callbench.harness.load import rate_windows
from callbench.harness.load.rate_windows import (
    AGREE,
    Window,
    WindowSize,
    agree,
    settled,
    stable,
    tail_quantile,
    windows_of,
)


def window(rate: float, tail_ns: float, arrivals: int = 2000) -> Window:
    return Window(0, arrivals, int(arrivals / rate * 1e9), 99, tail_ns)


def test_windows_cut_a_schedule_in_arrival_order_and_drop_a_short_last() -> None:
    offsets = np.arange(0, 10_500, dtype="<i8") * 1000  # 1,000,000 arrivals a second
    total = np.full(len(offsets), 50, dtype="<i8")
    total[2000:4000] = 7000  # the second window fell behind: its arrivals waited
    cut = windows_of(offsets, total, 2000)
    assert [w.first for w in cut] == [0, 2000, 4000, 6000, 8000]
    assert cut[0].served_rate == pytest.approx(1e6, rel=1e-3)
    assert cut[1].tail_ns == 7000 and cut[0].tail_ns == 50
    assert cut[1].served_rate < cut[0].served_rate


def test_a_backlog_carries_into_the_next_window() -> None:
    # Arrivals every microsecond; one call of 3 ms at arrival 1,990 holds one caller, so the
    # arrivals behind it, past the cut, wait: the next window's tail shows it.
    offsets = np.arange(0, 6000, dtype="<i8") * 1000
    done = np.maximum.accumulate(offsets + 500)
    done[1990:] = np.maximum(done[1990:], offsets[1990] + 3_000_000 + np.arange(4010) * 500)
    cut = windows_of(offsets, done - offsets, 2000)
    assert cut[1].tail_ns > 1_000_000 and cut[2].tail_ns < cut[1].tail_ns


def test_small_windows_report_p90() -> None:
    assert tail_quantile(1000) == 99 and tail_quantile(999) == 90
    offsets = np.arange(500, dtype="<i8") * 1_000_000
    (only,) = windows_of(offsets, np.arange(500, dtype="<i8"), 500)
    assert only.quantile == 90 and only.tail_ns == pytest.approx(np.percentile(range(500), 90))


def test_window_sizes_follow_the_rate() -> None:
    assert WindowSize.at(1e6) == WindowSize(2_000_000, rate_windows.MAX_WINDOWS)
    # Above WINDOW_MOST_ARRIVALS in WINDOW_S a window is shorter (a kit's memory).
    most = rate_windows.WINDOW_MOST_ARRIVALS
    assert WindowSize.at(5e7) == WindowSize(most, rate_windows.MAX_WINDOWS)
    assert WindowSize.at(2000.0) == WindowSize(4000, rate_windows.MAX_WINDOWS)
    slow = WindowSize.at(100.0)  # 2,000 arrivals take 20 s: AGREE windows fit 30 s
    assert slow.arrivals == 1000 and slow.most == AGREE
    assert slow.arrivals * slow.most / 100.0 <= rate_windows.POINT_MAX_S


def test_the_coarse_cut_keeps_a_slow_calls_points_short() -> None:
    # A call of tens of ms (about 12 requests a second): its full points take POINT_MAX_S,
    # its coarse ones COARSE_POINT_MAX_S at most, AGREE windows still.
    full, coarse = WindowSize.at(12.0), WindowSize.at(12.0, coarse=True)
    assert full.arrivals * full.most / 12.0 == pytest.approx(rate_windows.POINT_MAX_S, rel=0.1)
    assert coarse == WindowSize(32, AGREE)
    assert coarse.arrivals * coarse.most / 12.0 <= rate_windows.COARSE_POINT_MAX_S
    # A fast call's coarse windows are COARSE_WINDOW_S long, far within the limit.
    assert WindowSize.at(1e5, coarse=True) == WindowSize(10_000, rate_windows.MAX_WINDOWS)
    assert rate_windows.rule(coarse=True)["point_max_s"] == rate_windows.COARSE_POINT_MAX_S
    assert rate_windows.rule()["point_max_s"] == rate_windows.POINT_MAX_S


def test_agreement_is_largest_over_smallest() -> None:
    assert agree([100.0, 105.0, 109.9]) and not agree([100.0, 105.0, 110.1])
    assert not agree([0.0, 1.0]) and agree([0.0, 0.0])


def test_a_point_settles_at_the_first_three_windows_that_agree() -> None:
    windows = [window(1000.0, 900.0), window(1000.0, 500.0), window(1000.0, 510.0),
               window(1000.0, 520.0), window(1000.0, 2000.0)]  # fmt: skip
    assert not stable(windows[:3]) and stable(windows[:4])
    assert settled(windows) == (4, True)


def test_a_point_whose_windows_never_agree_is_unstable() -> None:
    rng = np.random.default_rng(3)
    windows = [window(1000.0 * rng.uniform(0.5, 1.5), 500.0 * 1.5**i) for i in range(6)]
    assert settled(windows) == (6, False)
    # Agreeing tails are not enough: the served rate must agree too.
    rates = [window(r, 500.0) for r in (1000.0, 800.0, 1000.0, 800.0)]
    assert settled(rates) == (4, False)
