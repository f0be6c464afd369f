"""A JIT row's settling: counted rounds until the JIT is warm, before its pairs are counted.

A JIT may still compile after the warm-up under Valgrind, which runs it some 50 times
slower; its figure is taken only once two successive counted rounds agree a call and ran
on the same thread (then taken as the calling thread)."""

from __future__ import annotations

from typing import Any

from callbench.harness.count_options import SETTLE_ROUNDS, calls_for
from callbench.harness.count_rounds import CountedRounds
from callbench.records import count as derive


def settled(figures: list[float]) -> bool:
    """The last two counted rounds' instructions a call agree within the settle tolerance."""
    if len(figures) < 2:
        return False
    a, b = figures[-2:]
    return abs(a - b) <= derive.SETTLE_TOLERANCE * max(abs(a), abs(b), 1.0)


def settle(rounds: CountedRounds, calls: int, warmup: int) -> dict[str, Any]:
    """Counted rounds of ``calls`` until two successive ones agree a call, their busiest
    thread the same (the JIT warm, and that thread the caller), at most SETTLE_ROUNDS:
    each round's instructions a call, and whether they settled."""
    figures: list[float] = []
    threads: list[int | None] = []

    def warm() -> bool:
        return settled(figures) and len(set(threads[-2:])) == 1

    while len(figures) < SETTLE_ROUNDS and not warm():
        figures.append(rounds.per_call(calls))
        threads.append(rounds.busiest)
    rounds.caller = threads[-1]
    return {"figures": figures, "settled": warm(),
            "calls_before_pairs": warmup + rounds.served}  # fmt: skip


def settle_calibrated(
    rounds: CountedRounds, calls: int, warmup: int, most: int, target: int
) -> tuple[int, dict[str, Any]]:
    """Settle at ``calls``, then at K calibrated again from the warm figure (rounds of
    ``target`` instructions): K and the settling (its figures at both Ks)."""
    first = settle(rounds, calls, warmup)
    warm_k = calls_for(first["figures"][-1], target, most)
    if not first["settled"] or warm_k == calls:
        return calls, first
    # The first counted round of a JIT row carries one-off work (a JVM's ran 600,000
    # instructions a call over 100 calls, against 28,000 warm): K is calibrated again from
    # the warm figure, and the rounds settle again at that K (a JVM's first pair at the
    # new K still ran 1.5% above the rest).
    again = settle(rounds, warm_k, warmup)
    return warm_k, {**again, "figures": first["figures"] + again["figures"]}
