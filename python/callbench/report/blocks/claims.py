"""When the report may say "A is faster than B", and how tied rows are ordered.

criterion's rule: a difference counts only when it is significant (the paired
95% interval of the ratio excludes 1) and larger than a noise threshold. On a
shared VM the interval alone is not enough: two back-to-back runs of the same
code reverse a few of the orders it allows (see README, "Claims that the next
run keeps"), so a claim must also clear ``NOISE``.

Where two neighbouring rows tie on wall time they stay in median order, and
the second axis (instructions per call under callgrind, which does not move
with the machine's load) is shown beside them, not used to reorder them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from callbench.records import count
from callbench.records.record import Record
from callbench.report.blocks.ratios import NOISE, Ratio, ratio

# How a row stands against the one above: the first row, a claim on wall time, or a tie.
Axis = Literal["first", "wall time", "tie"]


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
    """A row of the ordered table and how it stands against the row above.

    ``versus_above`` is this row over the row above it, paired by round.
    """

    record: Record
    axis: Axis
    versus_above: Ratio | None


def table_order(records: Sequence[Record], noise: float = NOISE) -> list[Placed]:
    """Verified rows in median order; each a claim against the row above or a tie.

    A tie keeps median order: a row's instructions never lift it over a row that
    takes less time (a row far off the time-instructions trend would jump rows
    that are faster). The claims are ``wall_claims``', the ones ``compare`` keeps.
    """
    placed: list[Placed] = []
    rows = by_median(records)
    for n, record in enumerate(rows):
        if n == 0:
            placed.append(Placed(record, "first", None))
            continue
        versus = ratio(record, rows[n - 1])
        placed.append(Placed(record, "wall time" if holds(versus, noise) else "tie", versus))
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
