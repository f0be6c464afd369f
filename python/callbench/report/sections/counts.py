"""The second axis: instructions per call under callgrind, beside the timed cost.

A count does not move with a neighbour's load the way a time does on a shared
VM; it says how much work a call is, not how fast the machine runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from callbench.records import count as derive
from callbench.records.record import Record
from callbench.report.blocks import claims
from callbench.report.blocks import format as fmt

# How many rows above and below the trend the report names.
TREND_NAMED = 5


def _build_mark(note: str | None) -> str:
    """What a figure counted on another build than the timed one is marked with."""
    if not note:
        return ""
    return " (AVX2 build)" if "AVX2 build" in note else " (other build, see below)"


def _counted(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r.count is not None]


def count_section(records: Sequence[Record]) -> str:
    """The counts table, or an empty string when no record of the run was counted."""
    counted = _counted(records)
    if not counted:
        return ""
    ok = sorted(
        (r for r in counted if r.count and r.count["status"] == "ok"),
        key=lambda r: derive.summary(r.count or {})["instructions_per_call"],
    )
    rest = sorted((r for r in counted if r not in ok), key=lambda r: r.id)
    cache_sim = any(r.count and r.count.get("cache_sim") for r in ok)
    header = ["driver", "instructions / call", "pairs' spread", "K"]
    header += ["est. cycles / call"] if cache_sim else []
    header += ["µs / call (timed)", "instructions / ns (timed)"]
    rows = []
    for record in ok:
        block = record.count or {}
        figures = derive.summary(block)
        per_call = float(figures["instructions_per_call"])
        width = figures["spread"]
        spread = fmt.NOT_SHOWN if width is None else f"{width:.2%}"
        if figures["varying"]:
            spread += " varying"
        work = f"{per_call:,.0f}" + _build_mark(block.get("build"))
        row = [f"`{record.id}`", work, spread, f"{block['calls']:,}"]
        if cache_sim:
            cycles = figures["est_cycles_per_call"]
            row.append(fmt.NOT_SHOWN if cycles is None else f"{cycles:,.0f}")
        if record.ok:
            row += [fmt.us(record.median_ns), f"{per_call / record.median_ns:.2f}"]
        else:
            row += [fmt.NOT_SHOWN, fmt.NOT_SHOWN]
        rows.append(row)
    for record in rest:
        block = record.count or {}
        cells = [f"{block.get('status')}: {fmt.one_line(block.get('error'))}"]
        rows.append([f"`{record.id}`", *cells, *[""] * (len(header) - 2)])
    first = (ok or rest)[0].count or {"pairs": []}
    how = (
        f"then rounds of one call (the baseline), of K and of 2K calls are each counted "
        f"alone, {len(first['pairs'])} times, and instructions per call = "
        "(B + I(K) + I(2K) - 3 Bmin) / (3K - 2), Bmin the cheapest baseline, so a round's "
        "own cost cancels and work deferred into the next round still counts. "
        if derive.cheapest_baseline(first) is not None
        else f"then rounds of K and of 2K calls are each counted alone, "
        f"{len(first['pairs'])} times, and instructions per call = (I(2K) - I(K)) / K, so "
        "a round's own cost cancels. "
    )
    text = [
        "Each driver served under Valgrind's callgrind "
        f"({first.get('valgrind') or 'Valgrind'}), loaded and warmed up uninstrumented; "
        + how
        + "The figure is the median of the pairs; a row whose pairs differ by over "
        f"{derive.VARYING:.0%} is marked varying: that runtime does different work "
        "from call to call. Outputs were checked against `reference.f32` as in a timed run.",
        "",
        f"Instruction set: {first.get('isa')}. Under Valgrind, runtimes that choose "
        "kernels by CPU feature (ONNX Runtime, oneDNN, XNNPACK, OpenVINO) take their AVX2 "
        "paths, so a count is of the AVX2 code even on a machine with AVX-512.",
    ]
    warm = [r for r in ok if (r.count or {}).get("settle")]
    if warm:
        named = ", ".join(
            f"`{r.id}` (JIT warm after {(r.count or {})['settle']['calls_before_pairs']:,} calls)"
            for r in warm
        )
        text += [
            "",
            "Counted, JIT warm: a JIT's row is counted with its threads apart (callgrind's "
            "`--separate-threads`), its figure the calling thread's alone (a compiler's or "
            "collector's thread stays out), and its pairs only once two successive rounds of K "
            f"calls agreed within {derive.SETTLE_TOLERANCE:.0%} a call on that thread: {named}.",
        ]
    builds: dict[str, list[str]] = {}
    for r in ok:
        if note := (r.count or {}).get("build"):
            builds.setdefault(note, []).append(f"`{r.id}`")
    for note, ids in builds.items():
        text += ["", f"Counted on another build than the timed one: {', '.join(ids)}: {note}."]
    if cache_sim:
        text += [
            "",
            "Estimated cycles (`--cache-sim`) = L1 hits + 5 × LL hits + 35 × RAM accesses, "
            "the estimate Gungraun (formerly iai-callgrind) and CodSpeed use.",
        ]
    return "\n".join([*text, "", fmt.table(header, rows)])


@dataclass(frozen=True)
class Trend:
    """log10(µs per call) = intercept + slope × log10(instructions per call), least squares.

    ``above`` is each row's distance above the line as a factor: 3.0 means the
    call takes three times as long as rows doing that much work usually do.
    """

    slope: float
    intercept: float
    points: dict[str, tuple[float, float]]  # id -> (instructions, µs)
    above: dict[str, float]

    def at(self, instructions: float) -> float:
        return float(10 ** (self.intercept + self.slope * np.log10(instructions)))


def both_axes(records: Sequence[Record]) -> dict[str, tuple[float, float]]:
    """id -> (instructions per call, µs per call) of rows both timed and counted."""
    found = {}
    for r in records:
        work = claims.instructions(r)
        if r.ok and work:
            found[r.id] = (work, r.median_ns / 1e3)
    return found


def trend(records: Sequence[Record]) -> Trend | None:
    points = both_axes(records)
    if len(points) < 3:
        return None
    x = np.log10([p[0] for p in points.values()])
    y = np.log10([p[1] for p in points.values()])
    slope, intercept = np.polyfit(x, y, 1)
    above = {d: float(10 ** (yi - (intercept + slope * xi)))
             for d, xi, yi in zip(points, x, y, strict=True)}  # fmt: skip
    return Trend(float(slope), float(intercept), points, above)


def trend_text(found: Trend, chart: str) -> str:
    """The chart and, in words, the rows furthest above and below the trend."""
    high = sorted(found.above, key=lambda d: -found.above[d])[:TREND_NAMED]
    low = sorted(found.above, key=lambda d: found.above[d])[:TREND_NAMED]

    def named(ids: list[str]) -> str:
        return ", ".join(f"`{d}` ×{found.above[d]:.1f}" for d in ids)

    return "\n".join([
        f"![wall time against instructions per call]({chart})", "",
        f"One point per row timed and counted, log–log; the line is the least-squares "
        f"trend (µs ∝ instructions^{found.slope:.2f}). Rows on the line do more or less work; "
        "rows far above it are slow for their work: cache misses, system calls, hand-offs "
        "between threads, allocation. Counts are of the AVX2 code paths (see above), so a row "
        "whose timed run took AVX-512 paths sits lower on the time axis than its count says.",
        "",
        f"- Furthest above the trend (slow for their work): {named(high)}.",
        f"- Furthest below it (fast for their work): {named(low)}.",
    ])  # fmt: skip
