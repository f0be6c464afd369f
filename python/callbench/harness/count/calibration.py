"""K, the calls of a counted round: chosen from what short counted rounds cost a call, so
that a round counts about the target number of instructions."""

from __future__ import annotations

from typing import Protocol

from callbench.harness.count.options import MIN_CALLS, calls_for

# The first counted round after the warm-up may carry one-off work: python-torchscript-frozen's
# ran 113,000 instructions a call in one run and 81,000 in the next, so K was 441 against 617,
# and at 441 its pairs read the interpreter's periodic collections 2% apart (run
# 20261128T1415Z-count-issue67-3). The cheaper of two rounds is the steady cost's estimate.
CALIBRATION_ROUNDS = 2


class Rounds(Protocol):
    def per_call(self, calls: int) -> float: ...


def calibrated_calls(rounds: Rounds, target: int, most: int) -> int:
    """K for this driver, from the cheapest of CALIBRATION_ROUNDS counted rounds of
    MIN_CALLS."""
    cost = min(rounds.per_call(MIN_CALLS) for _ in range(CALIBRATION_ROUNDS))
    return calls_for(cost, target, most)
