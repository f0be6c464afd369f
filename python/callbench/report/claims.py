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
# wall time; or nothing (a tie on both axes, or a row not counted).
Axis = Literal["first", "wall time", "instructions", "tie"]


def holds(slower_over_faster: Ratio | None, noise: float = NOISE) -> bool:
    """Whether "faster beats slower" may be said: significant and above the noise."""
    return slower_over_faster is not None and slower_over_faster.costs_more(noise)


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
    """A row of the ordered table and what put it below the row above.

    ``versus_above`` is the ratio the axis rests on: for a row that starts a
    new rank, the claim that separates it from the rank above (between the two
    rows neighbouring by median); otherwise this row over the row above it.
    """

    record: Record
    axis: Axis
    versus_above: Ratio | None


def _ordered_group(group: list[Record], noise: float) -> list[Record]:
    """Rows tied on wall time, neighbour by neighbour, ordered by instructions.

    Two rows of the group may still be a claim apart (steps under the noise add
    up), and such a claim is never contradicted: a row is placed only after
    every row that is faster than it beyond the noise. Among the rows free to
    go next, the first by median goes if it was not counted (nothing says
    otherwise); else the counted row with the fewest instructions.
    """
    # Who is slower than whom beyond the noise, worked out once for the group.
    beaten = {r.id: {o.id for o in group if holds(ratio(r, o), noise)} for r in group}
    remaining = list(group)  # by median
    ordered: list[Record] = []
    while remaining:
        left = {r.id for r in remaining}
        # Medians of paired ratios need not be transitive: the claims among the rows
        # left may form a cycle (A beats B beats C beats A), which no order keeps;
        # the rows left then go by median.
        free = [r for r in remaining if not beaten[r.id] & left] or remaining
        counted = [r for r in free if instructions(r) is not None]
        first = free[0]
        chosen = (
            first
            if instructions(first) is None
            else min(counted, key=lambda r: instructions(r) or 0.0)
        )
        ordered.append(chosen)
        remaining.remove(chosen)
    return ordered


def _axis(record: Record, above: Record, noise: float) -> Axis:
    """Why ``record`` sits below ``above`` inside a rank."""
    if holds(ratio(record, above), noise):
        return "wall time"
    mine, theirs = instructions(record), instructions(above)
    more = differ(theirs, mine) and (mine or 0.0) > (theirs or 0.0)
    return "instructions" if more else "tie"


def table_order(records: Sequence[Record], noise: float = NOISE) -> list[Placed]:
    """Verified rows by wall time; rows tied on it ordered by instructions; the axis of each."""
    rows = by_median(records)
    groups: list[tuple[Ratio | None, list[Record]]] = []
    for n, record in enumerate(rows):
        versus = ratio(record, rows[n - 1]) if n else None
        if n and not holds(versus, noise):
            groups[-1][1].append(record)
        else:
            groups.append((versus, [record]))
    placed: list[Placed] = []
    for boundary, group in groups:
        for n, record in enumerate(_ordered_group(group, noise)):
            if not placed:
                placed.append(Placed(record, "first", None))
            elif n == 0:
                placed.append(Placed(record, "wall time", boundary))
            else:
                above = placed[-1].record
                placed.append(Placed(record, _axis(record, above, noise), ratio(record, above)))
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
