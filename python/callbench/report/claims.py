"""When the report may say "A is faster than B", and how tied rows are ordered.

criterion's rule: a difference counts only when it is significant (the paired
95% interval of the ratio excludes 1) and larger than a noise threshold. On a
shared VM the interval alone is not enough: two back-to-back runs of the same
code reverse a few of the orders it allows (see README, "Claims that the next
run keeps"), so a claim must also clear ``NOISE``.

Where two neighbouring rows tie on wall time, the second axis (instructions
per call under callgrind, which does not move with the machine's load)
orders them when both were counted and their counts differ.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from callbench.records import count
from callbench.records.record import Record
from callbench.report.ratios import NOISE, Ratio, ratio

# What placed a row below the one above: a claim on wall time; instructions, in a tie on
# wall time; nothing (a tie on both, or not counted); or nothing because ordering the tie
# by instructions would contradict a claim on wall time further apart ("blocked").
Axis = Literal["first", "wall time", "instructions", "tie", "blocked"]


def holds(slower_over_faster: Ratio | None, noise: float = NOISE) -> bool:
    """Whether "faster beats slower" may be said: significant and above the noise."""
    return (
        slower_over_faster is not None
        and slower_over_faster.interval[0] > 1
        and slower_over_faster.value > 1 + noise
    )


@dataclass(frozen=True)
class Claim:
    """``faster`` costs less per call than ``slower``, by ``ratio`` (slower / faster)."""

    faster: str
    slower: str
    ratio: Ratio


def by_median(records: Iterable[Record]) -> list[Record]:
    return sorted((r for r in records if r.ok), key=lambda r: r.median_ns)


def wall_claims(records: Iterable[Record], noise: float = NOISE) -> list[Claim]:
    """The claims between neighbouring verified rows, in order of median cost."""
    rows = by_median(records)
    found = []
    for faster, slower in itertools.pairwise(rows):
        versus = ratio(slower, faster)
        if versus is not None and holds(versus, noise):
            found.append(Claim(faster.id, slower.id, versus))
    return found


def instructions(record: Record) -> float | None:
    """Instructions per call of a record's ok count, else None."""
    if record.count is None or record.count.get("status") != "ok":
        return None
    value = count.summary(record.count)["instructions_per_call"]
    return None if value is None else float(value)


def differ(a: float | None, b: float | None) -> bool:
    """Two counts that say different work: both present, further apart than ``VARYING``."""
    return a is not None and b is not None and abs(b / a - 1) > count.VARYING


@dataclass(frozen=True)
class Placed:
    """A row of the ordered table and what put it below the row above."""

    record: Record
    axis: Axis
    versus_above: Ratio | None


def _ordered_group(group: list[Record], noise: float) -> tuple[list[Record], Axis]:
    """A run of rows tied on wall time, ordered by instructions where that contradicts no claim.

    Also says what orders the group: "instructions", "tie" (some row not
    counted) or "blocked" (a row with fewer instructions is slower beyond the noise).
    """
    counts = [instructions(r) for r in group]
    if len(group) < 2 or any(c is None for c in counts):
        return group, "tie"
    candidate = sorted(group, key=lambda r: instructions(r) or 0.0)
    for i, upper in enumerate(candidate):
        for lower in candidate[i + 1 :]:
            if holds(ratio(upper, lower), noise):  # the row placed above is slower beyond noise
                return group, "blocked"
    return candidate, "instructions"


def table_order(records: Sequence[Record], noise: float = NOISE) -> list[Placed]:
    """Verified rows by wall time; rows tied on it ordered by instructions; the axis of each."""
    rows = by_median(records)
    groups: list[list[Record]] = []
    for n, record in enumerate(rows):
        if n and not holds(ratio(record, rows[n - 1]), noise):
            groups[-1].append(record)
        else:
            groups.append([record])
    placed: list[Placed] = []
    for group in groups:
        members, by = _ordered_group(group, noise)
        for n, record in enumerate(members):
            above = placed[-1].record if placed else None
            versus = ratio(record, above) if above is not None else None
            axis: Axis
            if above is None:
                axis = "first"
            elif n == 0:
                axis = "wall time"
            elif by == "instructions" and differ(instructions(above), instructions(record)):
                axis = "instructions"
            else:
                axis = "blocked" if by == "blocked" else "tie"
            placed.append(Placed(record, axis, versus))
    return placed


def kept(a: Sequence[Claim], b_records: Iterable[Record]) -> tuple[list[Claim], list[Claim]]:
    """Run A's claims that run B keeps (same order by median) and those it reverses.

    A claim whose rows are not both verified in B is neither: it is left out.
    """
    b_ok = {r.id: r for r in b_records if r.ok}
    held: list[Claim] = []
    reversed_: list[Claim] = []
    for claim in a:
        if claim.faster in b_ok and claim.slower in b_ok:
            versus = ratio(b_ok[claim.slower], b_ok[claim.faster])
            (held if versus is not None and versus.value > 1 else reversed_).append(claim)
    return held, reversed_
