"""A count's pairs: a round of one call (the baseline), one of K calls and one of 2K, each
counted alone, a few times; a pair's cost a call is theirs beyond the baseline's
(records.count derives the figures)."""

from __future__ import annotations

from typing import Any

from callbench.harness.count.options import (
    MORE_PAIRS_ABOVE,
    MOST_JIT_PAIRS,
    MOST_PAIRS,
    first_pairs,
    processes_for,
)
from callbench.harness.count.rounds import CountedRounds
from callbench.harness.options import RunOptions
from callbench.records import count as derive


def pairs_for(options: RunOptions, driver: str, jit: bool) -> tuple[int, int]:
    """How many pairs ``driver`` counts at first in a process (count_options.first_pairs),
    and at most, where they spread wide: a row counted in several processes shares the
    most among them."""
    first = first_pairs(options.pairs, jit)
    most = (MOST_JIT_PAIRS if jit else MOST_PAIRS) // processes_for(driver)
    return first, max(first, most)


def count_pairs(
    rounds: CountedRounds, calls: int, pairs: tuple[int, int]
) -> tuple[list[str], list[dict[str, Any]]]:
    """The events and the raw pairs of rounds of one call, ``calls`` and ``2 * calls``:
    ``first`` pairs, then two more at a time while their middle spreads over
    MORE_PAIRS_ABOVE, up to ``most``."""
    first, most = pairs
    events: list[str] = []
    counted: list[dict[str, Any]] = []

    def count(more: int) -> None:
        nonlocal events
        for _ in range(more):
            events, baseline = rounds.count(derive.BASELINE_CALLS)
            _, single = rounds.count(calls)
            _, double = rounds.count(2 * calls)
            counted.append({"baseline": baseline, "single": single, "double": double})

    def wide() -> bool:
        figures = derive.pair_figures({"events": events, "calls": calls, "pairs": counted})
        return (derive.middle_spread(figures) or 0.0) > MORE_PAIRS_ABOVE

    count(first)
    while len(counted) < most and wide():
        count(min(2, most - len(counted)))
    return events, counted
