"""What a record's instruction count says, derived from its raw pairs.

``callbench count`` runs each driver under callgrind and counts, a few times, a
round of one call (the baseline), a round of K calls and one of 2K calls. A
pair's cost per call is (B + I(K) + I(2K) - 3 Bmin) / (3K - 2), Bmin the
cheapest baseline: what a round costs besides its calls (reading the command,
writing the answer, toggling the instrumentation) cancels, and work a runtime
defers from one round's calls into the next round stays in the calls' cost.
The record keeps every raw total; every figure here is computed from them.
Records counted before the baseline (their pairs hold none) keep
(I(2K) - I(K)) / K.
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


# The baseline round's calls: one, so that it costs what any round costs besides its calls
# and next to nothing more. A round's own cost is not the same every time: glibc's
# malloc_consolidate gathers what earlier calls freed in whichever round sets it off, 0.2-1.1
# million instructions in python-torchscript-frozen's rounds of 617 calls, and where it
# falls moves from process to process. (I(2K) - I(K)) / K took it as the calls' cost when
# it fell in the 2K round and took it off when it fell in the K round: the median of seven
# such pairs moved 1.5% (runs 20261129T0914Z-count-issue67-22 and -24). A pair and its
# baseline together hold what their calls leave, wherever it falls; the cheapest baseline
# is the round's own cost with the least of it.
BASELINE_CALLS = 1


def cheapest_baseline(block: Mapping[str, Any]) -> list[int] | None:
    """Each event's least count over the pairs' baseline rounds; None where the pairs hold
    none (a record counted before them)."""
    pairs = block["pairs"]
    if not pairs or any("baseline" not in p for p in pairs):
        return None
    return [min(p["baseline"][i] for p in pairs) for i in range(len(block["events"]))]


def per_call(
    pair: Mapping[str, Sequence[int]],
    events: Sequence[str],
    calls: int,
    cheapest: Sequence[int] | None = None,
) -> dict[str, float]:
    """Each event's count per call of one pair: its three rounds (baseline, K, 2K) less three
    ``cheapest`` baselines, over the calls they make beyond those three rounds' (3K - 2);
    without baselines, (2K round - K round) / K."""
    if cheapest is None:
        return {e: (pair["double"][i] - pair["single"][i]) / calls for i, e in enumerate(events)}
    beyond = 3 * calls - 2 * BASELINE_CALLS
    return {
        e: (pair["baseline"][i] + pair["single"][i] + pair["double"][i] - 3 * cheapest[i]) / beyond
        for i, e in enumerate(events)
    }


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
    cheapest = cheapest_baseline(block)
    return [per_call(p, events, calls, cheapest)[event] for p in block["pairs"]]


def pair_cycles(block: Mapping[str, Any]) -> list[float]:
    """Estimated cycles per call of each pair; empty without cache simulation."""
    events, calls, cheapest = block["events"], int(block["calls"]), cheapest_baseline(block)
    found = [est_cycles(per_call(p, events, calls, cheapest)) for p in block["pairs"]]
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
