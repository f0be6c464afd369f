"""``callbench compare RUN_A RUN_B``: per driver, B's cost as a ratio of A's, with its interval.

As pyperf's compare_to: a change counts only when its 95% interval excludes
1 (no change); the others are within the noise of the two runs.
"""

from __future__ import annotations

from pathlib import Path

from callbench.records import stats
from callbench.records.store import load_run


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
    return "\n".join(rows)
