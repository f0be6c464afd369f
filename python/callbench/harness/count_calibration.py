"""K, the calls of a counted round: chosen from what one short counted round cost a call,
so that a round counts about the target number of instructions."""

from __future__ import annotations

from callbench.harness.count_options import MIN_CALLS, calls_for
from callbench.harness.count_rounds import CountedRounds


def calibrated_calls(rounds: CountedRounds, target: int, most: int) -> int:
    """K for this driver: one counted round of MIN_CALLS says roughly what a call costs."""
    return calls_for(rounds.per_call(MIN_CALLS), target, most)
