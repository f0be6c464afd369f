"""Run B against run A, per driver, as an object: what `callbench compare` prints and writes.

Wall time: B/A of the medians with a bootstrap 95% interval (the runs are
apart, so nothing pairs their rounds); a driver is faster or slower only when
that interval excludes 1 and the ratio clears ``NOISE`` (criterion's
rule). Instructions per call carry no interval; their pairs' range stands in
for one, so a count moved when the two ranges do not overlap and the ratio is
further from 1 than ``count.VARYING``.

Only rows that measured the same thing in both runs are compared and gated
(:mod:`callbench.report.blocks.comparable`); a row whose artifact changed, or a driver
in one run only, is listed apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from callbench.records import count, stats
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.report.blocks import claims
from callbench.report.blocks.comparable import COMPARED, Basis, Comparability, matching
from callbench.report.blocks.ratios import NOISE, Ratio

Verdict = Literal["faster", "slower", "unchanged", "new", "gone"]
CountVerdict = Literal["more", "fewer", "same"]
JSON_SCHEMA_VERSION = 2


@dataclass(frozen=True)
class Timed:
    median_ns: float
    interval_ns: tuple[float, float]


@dataclass(frozen=True)
class Counted:
    instructions_per_call: float
    pairs_range: tuple[float, float]
    varying: bool


@dataclass(frozen=True)
class Change:
    """One driver: its figures in both runs, B over A, and what changed."""

    id: str
    verdict: Verdict
    a: Timed | None
    b: Timed | None
    ratio: float | None = None
    interval: tuple[float, float] | None = None
    a_count: Counted | None = None
    b_count: Counted | None = None
    count_ratio: float | None = None
    count_verdict: CountVerdict | None = None
    comparability: Comparability = "same"

    @property
    def compared(self) -> bool:
        """Whether the row measured the same thing in both runs (compared and gated)."""
        return self.comparability in COMPARED

    @property
    def significant(self) -> bool:
        return self.interval is not None and (self.interval[0] > 1 or self.interval[1] < 1)


@dataclass(frozen=True)
class Side:
    run: str
    path: str
    host: str
    cpu: str
    commit: str | None


@dataclass
class Comparison:
    a: Side
    b: Side
    changes: list[Change]
    claims_made: list[claims.Claim]
    claims_reversed: list[claims.Claim]
    basis: Basis = "sha256"
    basis_note: str = ""
    files_differ: list[str] | None = None
    noise: float = NOISE
    failures: list[str] = field(default_factory=list)

    @property
    def claims_kept(self) -> int:
        return len(self.claims_made) - len(self.claims_reversed)

    @property
    def compared(self) -> list[Change]:
        return [c for c in self.changes if c.compared]

    @property
    def apart(self) -> list[Change]:
        """Rows listed apart, never gated: an artifact changed, or in one run only."""
        return [c for c in self.changes if not c.compared]


def _side(run: Run) -> Side:
    git = run.env.get("git") or {}
    return Side(run.name, str(run.path), run.host, str(run.env.get("cpu", "?")), git.get("commit"))


def _timed(record: Record | None) -> Timed | None:
    if record is None or not record.ok:
        return None
    return Timed(record.median_ns, record.interval_ns)


def _counted(record: Record | None) -> Counted | None:
    if record is None or record.count is None or record.count.get("status") != "ok":
        return None
    figures = count.pair_figures(record.count)
    if not figures:
        return None
    summary = count.summary(record.count)
    return Counted(summary["instructions_per_call"], (min(figures), max(figures)),
                   bool(summary["varying"]))  # fmt: skip


def _wall(a: Record, b: Record, noise: float) -> tuple[Verdict, float, tuple[float, float]]:
    value, interval = stats.ratio_of_medians(a.samples, b.samples)
    moved = Ratio(value, interval, paired=False)  # the runs are apart: nothing pairs rounds
    if moved.costs_more(noise):
        return "slower", value, interval
    if moved.costs_less(noise):
        return "faster", value, interval
    return "unchanged", value, interval


def count_moved(a: Counted, b: Counted, threshold: float) -> bool:
    """The pairs' ranges do not overlap and the medians differ by more than ``threshold``."""
    apart = not stats.overlaps(a.pairs_range, b.pairs_range)
    return apart and abs(b.instructions_per_call / a.instructions_per_call - 1) > threshold


def change(
    driver_id: str,
    a: Record | None,
    b: Record | None,
    noise: float,
    comparability: Comparability = "same",
) -> Change | None:
    timed_a, timed_b = _timed(a), _timed(b)
    count_a, count_b = _counted(a), _counted(b)
    counts: dict[str, Any] = {"a_count": count_a, "b_count": count_b,
                              "comparability": comparability}  # fmt: skip
    if count_a and count_b:
        moved = count_moved(count_a, count_b, count.VARYING)
        more = count_b.instructions_per_call > count_a.instructions_per_call
        counts["count_ratio"] = count_b.instructions_per_call / count_a.instructions_per_call
        counts["count_verdict"] = ("more" if more else "fewer") if moved else "same"
    if timed_a is None and timed_b is None:
        return None
    if timed_a is None or timed_b is None:
        verdict: Verdict = "new" if timed_a is None else "gone"
        return Change(driver_id, verdict, timed_a, timed_b, **counts)
    assert a is not None and b is not None
    verdict, value, interval = _wall(a, b, noise)
    return Change(driver_id, verdict, timed_a, timed_b, value, interval, **counts)


def compare(a: Run, b: Run, noise: float = NOISE) -> Comparison:
    """RunError when the runs measured another model or another call (see ``comparable``)."""
    match = matching(a, b)
    a_by, b_by = {r.id: r for r in a.drivers}, {r.id: r for r in b.drivers}
    changes = []
    for driver_id in sorted(set(a_by) | set(b_by)):
        a_record, b_record = a_by.get(driver_id), b_by.get(driver_id)
        found = change(driver_id, a_record, b_record, noise, match.of(a_record, b_record))
        if found is not None:
            changes.append(found)
    # Claims between the rows compared only: an ordering against a changed artifact says
    # nothing about whether this change kept it.
    same = {c.id for c in changes if c.compared}
    made = claims.wall_claims([r for r in a.drivers if r.id in same], noise)
    _, reversed_ = claims.kept(made, [r for r in b.drivers if r.id in same])
    checkable = {r.id for r in b.drivers if r.ok}
    made = [c for c in made if c.faster in checkable and c.slower in checkable]
    return Comparison(_side(a), _side(b), changes, made, reversed_, match.basis,
                      match.describe(), match.files_differ(), noise)  # fmt: skip


def gate(
    comparison: Comparison, fail_above: float | None, fail_above_count: float | None
) -> list[str]:
    """One line per row that fails the gate (empty: exit 0); stored on the comparison."""
    lines = []
    for c in comparison.compared:
        if c.verdict == "gone":
            lines.append(f"{c.id}: verified in A, not in B")
        if (
            fail_above is not None
            and c.ratio is not None
            and c.significant
            and abs(c.ratio - 1) > fail_above
        ):
            word = "slower" if c.ratio > 1 else "faster"
            low, high = c.interval or (c.ratio, c.ratio)
            lines.append(f"{c.id}: wall time {word}, B/A {c.ratio:.3f} ({low:.3f}–{high:.3f})")
        if (
            fail_above_count is not None
            and c.a_count
            and c.b_count
            and count_moved(c.a_count, c.b_count, fail_above_count)
        ):
            lines.append(f"{c.id}: instructions per call {(c.count_ratio or 1) - 1:+.2%}")
    comparison.failures = lines
    return lines


def _claim_json(claim: claims.Claim) -> dict[str, Any]:
    low, high = claim.ratio.interval
    return {"faster": claim.faster, "slower": claim.slower,
            "ratio": {"value": claim.ratio.value, "interval": [low, high]}}  # fmt: skip


def _change_json(c: Change) -> dict[str, Any]:
    def timed(t: Timed | None) -> dict[str, Any] | None:
        return None if t is None else {"median_ns": t.median_ns, "interval_ns": list(t.interval_ns)}

    def counted(k: Counted | None) -> dict[str, Any] | None:
        return None if k is None else {**asdict(k), "pairs_range": list(k.pairs_range)}

    instructions = None
    if c.a_count or c.b_count:
        instructions = {"a": counted(c.a_count), "b": counted(c.b_count),
                        "ratio": c.count_ratio, "verdict": c.count_verdict}  # fmt: skip
    wall = None if c.ratio is None else {"value": c.ratio, "interval": list(c.interval or ())}
    return {"id": c.id, "comparability": c.comparability, "verdict": c.verdict,
            "a": timed(c.a), "b": timed(c.b), "ratio": wall,
            "instructions": instructions}  # fmt: skip


def to_json(
    comparison: Comparison, fail_above: float | None, fail_above_count: float | None
) -> dict[str, Any]:
    """The comparison as docs/comparison.schema.json describes it."""
    return {
        "schema": JSON_SCHEMA_VERSION,
        "a": asdict(comparison.a),
        "b": asdict(comparison.b),
        "basis": comparison.basis,
        "files_differ": comparison.files_differ,
        "noise": comparison.noise,
        "drivers": [_change_json(c) for c in comparison.changes],
        "claims": {
            "made": len(comparison.claims_made),
            "kept": comparison.claims_kept,
            "reversed": [_claim_json(c) for c in comparison.claims_reversed],
        },
        "gate": {
            "fail_above": fail_above,
            "fail_above_count": fail_above_count,
            "failures": comparison.failures,
            "exit": 1 if comparison.failures else 0,
        },
    }


def counted_pairs(changes: Sequence[Change]) -> list[Change]:
    return [c for c in changes if c.a_count and c.b_count]
