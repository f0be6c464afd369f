"""A JIT row's settling: counted rounds until the JIT is warm, before its pairs are counted.

A JIT may still compile after the warm-up under Valgrind, which runs it some 50 times
slower; its figure is taken only once two successive counted rounds agree a call and ran
on the same thread (then taken as the calling thread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from callbench.harness.count.options import SETTLE_ROUNDS, calls_for
from callbench.harness.count.rounds import CountedRounds
from callbench.records import count as derive

# While settling, K follows the figure when the K it calls for is this far (as a ratio)
# from the K in use: java-pytorch's first settle ran at the K of its 100-call rounds
# (1,673 at 4e8, one-off work inflating them) against ~5,200 warm, and at 1,673 its young
# collections fell in every other round (77.5k and 76.1k a call), so twelve rounds never
# agreed and the row was skipped (run 20261128T1852Z-count-issue67-12).
FOLLOW_ABOVE = 1.25


def settled(figures: list[float]) -> bool:
    """The last two counted rounds' instructions a call agree within the settle tolerance."""
    if len(figures) < 2:
        return False
    a, b = figures[-2:]
    return abs(a - b) <= derive.SETTLE_TOLERANCE * max(abs(a), abs(b), 1.0)


def far(k: int, calls: int) -> bool:
    """Whether K ``k`` is FOLLOW_ABOVE or more from ``calls``, either way."""
    return max(k, calls) >= FOLLOW_ABOVE * min(k, calls)


def _until_warm(
    rounds: CountedRounds, calls: int, follow: Callable[[float], int] | None
) -> tuple[int, list[float], bool]:
    """Counted rounds until the last two at one K agree a call and ran on one thread, at
    most SETTLE_ROUNDS; K moved to ``follow(figure)`` when that is far from it. The last
    K, every round's figure, and whether they settled."""
    figures: list[float] = []
    threads: list[int | None] = []
    first_at_k = 0

    def warm() -> bool:
        return settled(figures[first_at_k:]) and len(set(threads[-2:])) == 1

    while len(figures) < SETTLE_ROUNDS and not warm():
        figures.append(rounds.per_call(calls))
        threads.append(rounds.busiest)
        if follow is not None and far(k := follow(figures[-1]), calls):
            calls, first_at_k = k, len(figures)
    rounds.caller = threads[-1]
    return calls, figures, warm()


def _settling(
    figures: list[float], warm: bool, rounds: CountedRounds, warmup: int
) -> dict[str, Any]:
    return {"figures": figures, "settled": warm,
            "calls_before_pairs": warmup + rounds.served}  # fmt: skip


def settle(rounds: CountedRounds, calls: int, warmup: int) -> dict[str, Any]:
    """Counted rounds of ``calls`` until two successive ones agree a call, their busiest
    thread the same (the JIT warm, and that thread the caller), at most SETTLE_ROUNDS:
    each round's instructions a call, and whether they settled."""
    _, figures, warm = _until_warm(rounds, calls, None)
    return _settling(figures, warm, rounds, warmup)


def settle_calibrated(
    rounds: CountedRounds, calls: int, warmup: int, most: int, target: int
) -> tuple[int, dict[str, Any]]:
    """Settle from ``calls`` on, K following the figure where it moves far, then at K
    calibrated again from the warm figure (rounds of ``target`` instructions): K and the
    settling (the figures of every round)."""

    def follow(figure: float) -> int:
        return calls_for(figure, target, most)

    calls, figures, warm = _until_warm(rounds, calls, follow)
    warm_k = follow(figures[-1])
    if not warm or warm_k == calls:
        return calls, _settling(figures, warm, rounds, warmup)
    # The first counted rounds of a JIT row carry one-off work (a JVM's ran 600,000
    # instructions a call over 100 calls, against 28,000 warm): K is calibrated again from
    # the warm figure, and the rounds settle again at that K (a JVM's first pair at the
    # new K still ran 1.5% above the rest).
    again = settle(rounds, warm_k, warmup)
    return warm_k, {**again, "figures": figures + again["figures"]}
