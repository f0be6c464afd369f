"""``callbench compare RUN_A RUN_B``: per driver, B's cost as a ratio of A's, with its interval.

As pyperf's compare_to: a change counts only when its 95% interval excludes
1 (no change); the others are within the noise of the two runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from callbench.records import count, stats
from callbench.records.record import Record
from callbench.records.store import load_run

# Ratios between drivers "agree" across two runs when each moves by less than this
# against the run as a whole (the goal for two default runs on a quiet machine).
AGREE = 0.05


def between_drivers(a_ok: Mapping[str, Record], b_ok: Mapping[str, Record]) -> str:
    """How far each driver moved against the others: B/A over the median of all B/A.

    A machine that is faster or slower as a whole in B moves every driver alike
    and cancels; what is left is how much the ratios between drivers changed.
    The median, not the mean, so that one driver that moved does not move the rest.
    """
    common = sorted(set(a_ok) & set(b_ok))
    if len(common) < 2:
        return "ratios between drivers: fewer than two drivers in common"
    moves = {d: b_ok[d].median_ns / a_ok[d].median_ns for d in common}
    scale = stats.median(list(moves.values()))
    relative = {d: m / scale - 1 for d, m in moves.items()}
    within = sum(abs(v) < AGREE for v in relative.values())
    widest = sorted(relative, key=lambda d: -abs(relative[d]))[:3]
    named = ", ".join(f"{d} {relative[d]:+.1%}" for d in widest)
    return (
        f"ratios between drivers (each B/A over the median B/A, {scale:.3f}): "
        f"{within} of {len(common)} within ±{AGREE:.0%}; widest: {named}"
    )


def compare_runs(a_path: Path, b_path: Path) -> str:
    a, b = load_run(a_path), load_run(b_path)
    a_ok = {r.id: r for r in a.drivers if r.ok}
    b_ok = {r.id: r for r in b.drivers if r.ok}
    rows = [
        f"A = {a.name}, B = {b.name}",
        f"{'driver':34} {'A µs':>9} {'B µs':>9} {'B/A':>7} {'95% interval':>15}  verdict",
    ]
    for driver_id in sorted(set(a_ok) | set(b_ok)):
        if driver_id not in a_ok or driver_id not in b_ok:
            where = "B" if driver_id in a_ok else "A"
            rows.append(f"{driver_id:34} not ok in {where}")
            continue
        ra, rb = a_ok[driver_id], b_ok[driver_id]
        ratio, (low, high) = stats.ratio_of_medians(ra.samples, rb.samples)
        if low > 1:
            verdict = f"slower by {ratio - 1:.0%}"
        elif high < 1:
            verdict = f"faster by {1 - ratio:.0%}"
        else:
            verdict = "no change beyond the noise"
        rows.append(
            f"{driver_id:34} {ra.median_ns / 1e3:9.3f} {rb.median_ns / 1e3:9.3f} {ratio:7.3f} "
            f"{f'{low:.3f}–{high:.3f}':>15}  {verdict}"
        )
    rows += ["", between_drivers(a_ok, b_ok)]
    counts = counts_between(a.drivers, b.drivers)
    return "\n".join([*rows, *(["", counts] if counts else [])])


def counts_between(a: Sequence[Record], b: Sequence[Record]) -> str:
    """Instructions per call, B against A, for the drivers counted in both runs.

    A count does not move with the machine's load: a difference over
    ``count.VARYING`` is a change in the work a call does (or a row that varies).
    """
    a_counted, b_counted = _counted(a), _counted(b)
    common = sorted(set(a_counted) & set(b_counted))
    if not common:
        return ""
    rows = [f"{'driver':34} {'A instr':>11} {'B instr':>11} {'B/A':>7}  verdict"]
    within = 0
    for driver_id in common:
        fa, fb = a_counted[driver_id], b_counted[driver_id]
        ratio = fb["instructions_per_call"] / fa["instructions_per_call"]
        varies = fa["varying"] or fb["varying"]
        if abs(ratio - 1) <= count.VARYING:
            within += 1
            verdict = "same work"
        else:
            verdict = f"{ratio - 1:+.2%}" + (" (a varying row)" if varies else "")
        rows.append(
            f"{driver_id:34} {fa['instructions_per_call']:11,.0f} "
            f"{fb['instructions_per_call']:11,.0f} {ratio:7.4f}  {verdict}"
        )
    rows.append(
        f"instructions per call: {within} of {len(common)} within ±{count.VARYING:.0%} of A"
    )
    return "\n".join(rows)


def _counted(records: Sequence[Record]) -> dict[str, dict[str, Any]]:
    return {
        r.id: count.summary(r.count)
        for r in records
        if r.count is not None and r.count["status"] == "ok"
    }
