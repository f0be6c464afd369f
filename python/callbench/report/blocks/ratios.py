"""Ratios between two drivers' costs, with their 95% intervals, from the raw rounds.

Rounds are interleaved: round r of every driver in a group ran together, so
the ratio is taken round by round over the round indices both drivers have
(``stats.paired_ratio``), and drift that hit both cancels. Records with no
round index in common fall back to the ratio of the medians with a
bootstrap interval.
"""

from __future__ import annotations

from dataclasses import dataclass

from callbench.records import stats
from callbench.records.record import Record
from callbench.report.blocks.format import ratio_cell

# criterion's rule: a ratio says one row costs more than another only when its
# interval excludes 1 and it is further from 1 than this noise threshold, chosen
# from two back-to-back default runs on this 2-core VM so that the second run
# keeps every such claim of the first (README, "Claims that the next run keeps").
NOISE = 0.10


@dataclass(frozen=True)
class Ratio:
    """``a``'s cost per call over ``b``'s: above 1 when ``a`` costs more."""

    value: float
    interval: stats.Interval
    paired: bool

    def costs_more(self, noise: float = NOISE) -> bool:
        """``a`` costs more: the whole interval above 1 and the ratio above 1 + ``noise``."""
        return self.interval[0] > 1 and self.value > 1 + noise

    def costs_less(self, noise: float = NOISE) -> bool:
        return self.interval[1] < 1 and self.value < 1 - noise

    @property
    def above_one(self) -> bool:
        return self.costs_more()

    @property
    def below_one(self) -> bool:
        return self.costs_less()

    @property
    def tie(self) -> bool:
        return not (self.above_one or self.below_one)

    def inverse(self) -> Ratio:
        low, high = self.interval
        return Ratio(1 / self.value, (1 / high, 1 / low), self.paired)

    def __str__(self) -> str:
        return ratio_cell(self.value, self.interval)


def ratio(a: Record, b: Record) -> Ratio | None:
    """``a`` / ``b`` per call, or None unless both were measured and verified."""
    if not (a.ok and b.ok):
        return None
    a_rounds, b_rounds = a.by_round(), b.by_round()
    common = sorted(set(a_rounds) & set(b_rounds))
    if common:
        value, interval = stats.paired_ratio(
            [a_rounds[i] for i in common], [b_rounds[i] for i in common]
        )
        return Ratio(value, interval, paired=True)
    value, interval = stats.ratio_of_medians(b.samples, a.samples)
    return Ratio(value, interval, paired=False)
