"""A count's pairs: a round of K calls and one of 2K, each counted alone, a few times; a
pair's cost a call is their difference over K (records.count derives the figures)."""

from __future__ import annotations

from typing import Any

from callbench.harness.count_options import JIT_PAIRS
from callbench.harness.count_rounds import CountedRounds
from callbench.harness.options import RunOptions


def pairs_for(options: RunOptions, jit: bool) -> int:
    """How many pairs a row counts: the option's, a JIT row's at least JIT_PAIRS."""
    return max(options.pairs, JIT_PAIRS) if jit else options.pairs


def count_pairs(
    rounds: CountedRounds, calls: int, pairs: int
) -> tuple[list[str], list[dict[str, Any]]]:
    """The events and ``pairs`` pairs of rounds of ``calls`` and ``2 * calls``, raw."""
    events: list[str] = []
    counted = []
    for _ in range(pairs):
        events, single = rounds.count(calls)
        _, double = rounds.count(2 * calls)
        counted.append({"single": single, "double": double})
    return events, counted
