"""What a record's instruction count says, derived from its raw pairs.

``callbench count`` runs each driver under callgrind and counts a round of K
calls and one of 2K calls, a few times; a pair's cost per call is
(I(2K) - I(K)) / K, so what a round costs besides its calls (reading the
command, writing the answer, toggling the instrumentation) cancels. The record
keeps every raw total; every figure here is computed from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callbench.records import stats

INSTRUCTIONS = "Ir"
# Cache simulation's events (callgrind --cache-sim=yes): references, then misses
# at the first level (I1, D1) and at the last level (LL).
REFERENCES = ("Ir", "Dr", "Dw")
L1_MISSES = ("I1mr", "D1mr", "D1mw")
LL_MISSES = ("ILmr", "DLmr", "DLmw")
# Estimated cycles = L1 hits + 5 x LL hits + 35 x RAM accesses: the weights
# Gungraun (formerly iai-callgrind) and CodSpeed use for their estimate.
LL_HIT_CYCLES = 5
RAM_CYCLES = 35
# Pairs further apart than this (max - min over the median) mark a row as varying:
# the runtime does different work from call to call; the spread is reported.
VARYING = 0.01
# A JIT row's pairs wait until two successive counted rounds agree this closely a call.
SETTLE_TOLERANCE = 0.01


def per_call(
    pair: Mapping[str, Sequence[int]], events: Sequence[str], calls: int
) -> dict[str, float]:
    """Each event's count per call of one pair: (2K round - K round) / K."""
    return {e: (pair["double"][i] - pair["single"][i]) / calls for i, e in enumerate(events)}


def est_cycles(counts: Mapping[str, float]) -> float | None:
    """L1 hits + 5 LL hits + 35 RAM accesses, from cache-simulation counts (None without)."""
    if not all(e in counts for e in (*REFERENCES, *L1_MISSES, *LL_MISSES)):
        return None
    references = sum(counts[e] for e in REFERENCES)
    l1_misses = sum(counts[e] for e in L1_MISSES)
    ram = sum(counts[e] for e in LL_MISSES)
    return (references - l1_misses) + LL_HIT_CYCLES * (l1_misses - ram) + RAM_CYCLES * ram


def pair_figures(block: Mapping[str, Any], event: str = INSTRUCTIONS) -> list[float]:
    """Instructions (or ``event``) per call of each pair, in the order counted."""
    events, calls = block["events"], int(block["calls"])
    if event not in events:
        return []
    return [per_call(p, events, calls)[event] for p in block["pairs"]]


def pair_cycles(block: Mapping[str, Any]) -> list[float]:
    """Estimated cycles per call of each pair; empty without cache simulation."""
    events, calls = block["events"], int(block["calls"])
    found = [est_cycles(per_call(p, events, calls)) for p in block["pairs"]]
    return [c for c in found if c is not None]


def spread(figures: Sequence[float]) -> float | None:
    """(max - min) / |median| of the pairs' figures; None with fewer than two. A JIT still
    compiling can make a pair's double round cost less than its single one: a negative
    figure, whose spread is still a width (never negative), and wide."""
    if len(figures) < 2:
        return None
    middle = stats.median(list(figures))
    return (max(figures) - min(figures)) / abs(middle) if middle else None


def middle_spread(figures: Sequence[float]) -> float | None:
    """The spread of the middle three pairs, with five or more (one round's garbage
    collection moves one pair, not the median); else the whole spread."""
    ordered = sorted(figures)
    middle = (len(ordered) - 3) // 2
    return spread(ordered[middle : middle + 3] if len(ordered) >= 5 else ordered)


def summary(block: Mapping[str, Any]) -> dict[str, Any]:
    """The figures a record states beside its raw pairs (medians of the pairs)."""
    figures, cycles = pair_figures(block), pair_cycles(block)
    width = spread(figures)
    return {
        "instructions_per_call": stats.median(figures) if figures else None,
        "est_cycles_per_call": stats.median(cycles) if cycles else None,
        "spread": width,
        "varying": width is not None and width > VARYING,
    }
