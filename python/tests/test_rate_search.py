"""The search for the highest rate within a p99 bound, on points of a known capacity."""

from __future__ import annotations

import numpy as np
import pytest

from callbench.harness.load import rate_repeats, rate_search
from callbench.harness.load.rate_search import (
    STEP,
    Point,
    bound_of_model,
    point_of,
    search,
)


def known(capacity: float, *, fail_first_confirmation: bool = False):
    """A point that passes exactly at rates up to ``capacity``."""
    confirmations = [0]

    def point(rate: float, confirm: bool) -> Point:
        within = rate <= capacity
        if confirm:
            confirmations[0] += 1
            within = within and not (fail_first_confirmation and confirmations[0] == 1)
        return Point(rate, 5000, 0, 1, 1.0, 1.0 if within else 9.0, None, 1, within, confirm)

    return point


@pytest.mark.parametrize("estimate", [500.0, 800.0, 1000.0, 1500.0, 3000.0])
def test_the_search_finds_a_known_capacity_within_its_step(estimate: float) -> None:
    found = search(known(1000.0), estimate)
    assert found.rate is not None and 1000.0 * (1 - STEP) <= found.rate <= 1000.0
    assert found.points[-1].confirm and found.points[-1].rate == found.rate
    assert not any(p.confirm for p in found.points[:-1])


def test_a_failed_confirmation_makes_its_rate_a_failing_one_and_confirms_below_it() -> None:
    found = search(known(1000.0, fail_first_confirmation=True), 900.0)
    first, second = [p for p in found.points if p.confirm]
    assert not first.within and second.within
    assert found.rate == second.rate and second.rate < first.rate
    # Below the failed rate, the highest that passed in the search (the bracket was done).
    assert second.rate == max(
        p.rate for p in found.points if p.within and not p.confirm and p.rate < first.rate
    )


def test_a_row_that_passes_at_no_rate_sustains_none() -> None:
    found = search(known(0.0), 1000.0)
    assert found.rate is None and not any(p.within for p in found.points)


def test_a_top_that_still_passes_is_said_to_be_a_floor() -> None:
    found = search(known(1e12), 1000.0)
    assert found.capped and found.rate == 1000.0 * rate_search.FIRST_TOP * 2**rate_search.RAISES


def test_a_point_gives_p999_only_where_its_calls_support_it() -> None:
    few, many = np.arange(1, 5001), np.arange(1, 20001)
    assert point_of(1.0, 0, few, 10, 1e9).p999_ns is None
    assert point_of(1.0, 0, many, 10, 1e9).p999_ns == pytest.approx(np.percentile(many, 99.9))
    assert not point_of(1.0, 0, many, 10, bound_ns=100).within


def test_arrivals_are_seeded_and_in_order() -> None:
    offsets = rate_search.arrivals(1000.0, 100, seed=7)
    assert offsets.dtype == np.dtype("<i8") and (np.diff(offsets) >= 0).all()
    assert (offsets == rate_search.arrivals(1000.0, 100, seed=7)).all()


@pytest.mark.parametrize(("median_ns", "bound_ns"),
                         [(100_000, 1e6), (120_000, 2e6), (300_000, 5e6), (6e6, 1e8)])  # fmt: skip
def test_a_users_bound_is_ten_medians_up_to_a_1_2_5_step(median_ns: float, bound_ns: float) -> None:
    assert bound_of_model(median_ns) == bound_ns


def noisy(capacity: float, spread: float, seed: int):
    """A point of a known capacity on a noisy machine: each point sees the capacity scaled by
    a random factor (its stalls), so pass/fail is not monotone in rate near it."""
    rng = np.random.default_rng(seed)

    def point(rate: float, confirm: bool) -> Point:
        within = rate <= capacity * rng.normal(1.0, spread)
        return Point(rate, 5000, 0, 1, 1.0, 1.0 if within else 9.0, None, 1, within, confirm)

    return point


@pytest.mark.parametrize("seed", range(5))
def test_repeated_searches_on_noise_find_the_capacity_within_their_interval(seed: int) -> None:
    shape, searches, found = rate_repeats.repeated(noisy(1000.0, 0.03, seed), 1100.0)
    assert [p.rate for p in shape] == pytest.approx([s * 1100.0 for s in rate_repeats.CURVE])
    assert len(searches) == rate_repeats.REPEATS == len(found.rates)
    low, high = found.interval
    assert low <= found.median <= high
    # The noise moves each search; the interval of their median holds the capacity (less
    # the search's step), and is no wider than the noise makes it.
    assert low <= 1000.0 and high >= 1000.0 * (1 - STEP)
    assert low >= 0.8 * 1000.0 and high <= 1.2 * 1000.0


def test_each_repeat_serves_the_curves_failing_end_again_then_halves_its_own_bracket() -> None:
    shape, searches, found = rate_repeats.repeated(known(700.0), 1000.0)
    assert rate_repeats.bracket_of(shape) == (700.0, 800.0)
    tops = []
    for each in searches:
        # Its first point is the failing end again, raised by a drawn share of the step.
        first = each.points[0]
        assert 800.0 <= first.rate < 800.0 * (1 + STEP) and not first.within
        tops.append(first.rate)
        assert all(700.0 * (1 - STEP) <= p.rate <= first.rate for p in each.points)
        assert each.rate is not None and 700.0 * (1 - STEP) <= each.rate <= 700.0
        # Its halving passed nothing of its own: its rate is the curve's 700 served again,
        # lowered by a drawn share of the step, and passed.
        assert each.points[-1].rate == each.rate and each.points[-1].within
    # Each repeat drew its own raise and its own lowering: they halve no common grid, and
    # their rates (so the interval) are theirs, not the curve's one pass.
    assert len(set(tops)) == len(tops) == len(set(found.rates))
    low, high = found.interval
    assert 700.0 * (1 - STEP) <= low < high <= 700.0 and not found.capped


def test_a_repeat_whose_curve_pass_fails_again_steps_down_the_curve() -> None:
    # Capacity 600: the curve passed 700 by luck (a lucky point). A repeat halving from
    # (700, 800) passes nothing; 700 lowered by less than the step fails again; the curve's
    # next pass below (500), lowered alike, passes: the repeat's rate, not the lucky 700.
    lucky_700 = [True]

    def point(rate: float, confirm: bool) -> Point:
        lucky = rate == 700.0 and bool(lucky_700) and lucky_700.pop()
        within = rate <= 600.0 or lucky
        return Point(rate, 5000, 0, 1, 1.0, 1.0 if within else 9.0, None, 1, within, confirm)

    shape, searches, found = rate_repeats.repeated(point, 1000.0, seed=5)
    assert rate_repeats.bracket_of(shape) == (700.0, 800.0)
    for each in searches:
        assert each.rate is not None and 500.0 * (1 - STEP) <= each.rate <= 500.0
        assert [p.within for p in each.points[-2:]] == [False, True]
    assert found.median <= 500.0


def test_one_unlucky_curve_point_moves_no_repeat() -> None:
    # Capacity 900, but the curve's point at 800 fails (a stall): each repeat serves that
    # end again, passes, and halves up to the curve's next failure (950), finding 900.
    curve_800 = [True]

    def point(rate: float, confirm: bool) -> Point:
        unlucky = rate == 800.0 and bool(curve_800) and curve_800.pop()
        within = rate <= 900.0 and not unlucky
        return Point(rate, 5000, 0, 1, 1.0, 1.0 if within else 9.0, None, 1, within, confirm)

    shape, searches, found = rate_repeats.repeated(point, 1000.0, seed=3)
    assert rate_repeats.bracket_of(shape) == (700.0, 800.0)
    for each in searches:
        assert each.points[0].within and each.rate is not None
        assert 900.0 * (1 - STEP) <= each.rate <= 900.0
    low, high = found.interval
    assert 900.0 * (1 - STEP) <= low <= found.median <= high <= 900.0


def test_the_repeats_draws_follow_the_seed() -> None:
    def tops(seed: int) -> list[float]:
        _, searches, _ = rate_repeats.repeated(known(700.0), 1000.0, seed=seed)
        return [s.points[0].rate for s in searches]

    assert tops(1) == tops(1) != tops(2)


def test_a_curve_that_always_passes_leaves_the_search_its_own_top() -> None:
    shape, _, found = rate_repeats.repeated(known(1e12), 1000.0, repeats=2)
    assert rate_repeats.bracket_of(shape) == (950.0, None)
    assert found.capped and found.median == 1000.0 * rate_search.FIRST_TOP * 2**rate_search.RAISES


def test_a_curve_that_passes_throughout_bounds_the_search_from_below() -> None:
    # Capacity 1,100 over an estimate of 1,000: every share of the curve passes; the top
    # (1,200) fails, and the halving runs between it and the curve's 950, not from 0.
    _, searches, found = rate_repeats.repeated(known(1100.0), 1000.0, repeats=1)
    (each,) = searches
    assert each.points[0].rate == 1000.0 * rate_search.FIRST_TOP
    assert all(p.rate >= 950.0 for p in each.points)
    assert found.median is not None and 1100.0 * (1 - STEP) <= found.median <= 1100.0


def test_a_repeat_that_sustains_nothing_counts_as_zero() -> None:
    _, _, found = rate_repeats.repeated(known(0.0), 1000.0, repeats=3)
    assert found.rates == (0.0, 0.0, 0.0) and found.median == 0.0
