"""``callbench compare RUN_A RUN_B``: per driver, B against A; a gate for CI with ``--fail-above``.

Exit 0: nothing moved beyond the thresholds (or no gate asked for); 1: the
gate failed, its rows printed in one block; 2: a run unreadable or measuring
something else than the other (one line naming the file). Rows whose artifact
changed, and drivers in one run only, are listed apart and never gated.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from callbench.errors import RunError
from callbench.records import count, stats
from callbench.records.record import Record
from callbench.records.store import find_run, load_run
from callbench.report import comparison as cmp

# Ratios between drivers "agree" across two runs when each moves by less than this
# against the run as a whole (the goal for two default runs on a quiet machine).
AGREE = 0.05
STDOUT = "-"


def percent(text: str) -> float:
    """A percentage on the command line ("5" or "5%") as a fraction."""
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is below 0")
    return value / 100


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_a", help="the base: a run folder or id")
    p.add_argument("run_b", help="the change")
    p.add_argument("--json", metavar="PATH", help="write the comparison as JSON (- for stdout)")
    p.add_argument("--fail-above", type=percent, metavar="PCT",
                   help="exit 1 when a driver's wall time moved by more than PCT%% and its "
                        "interval excludes 1")  # fmt: skip
    default = f"{count.VARYING * 100:.0f}%%"  # argparse formats help with %
    p.add_argument("--fail-above-count", type=percent, metavar="PCT",
                   help="exit 1 when instructions per call moved by more than PCT%% "
                        f"(default {default} once --fail-above is given)")  # fmt: skip


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


def _verdict(c: cmp.Change) -> str:
    if c.verdict in ("new", "gone"):
        return f"not ok in {'A' if c.verdict == 'new' else 'B'}"
    if c.verdict == "unchanged":
        return "no change beyond the noise"
    return f"{c.verdict} by {abs((c.ratio or 1) - 1):.0%}"


def _wall_row(c: cmp.Change, verdict: str) -> str:
    if c.a is None or c.b is None:
        return f"{c.id:34} {verdict}"
    low, high = c.interval or (0.0, 0.0)
    return (
        f"{c.id:34} {c.a.median_ns / 1e3:9.3f} {c.b.median_ns / 1e3:9.3f} {c.ratio or 0:7.3f} "
        f"{f'{low:.3f}–{high:.3f}':>15}  {verdict}"
    )


def wall_lines(comparison: cmp.Comparison) -> list[str]:
    rows = [f"{'driver':34} {'A µs':>9} {'B µs':>9} {'B/A':>7} {'95% interval':>15}  verdict"]
    rows += [_wall_row(c, _verdict(c)) for c in comparison.compared]
    return rows


def apart_lines(comparison: cmp.Comparison) -> list[str]:
    """The rows that measured something else in one run: their figures, never a verdict."""
    apart = comparison.apart
    if not apart:
        return []
    rows = [f"listed apart, not compared or gated ({len(apart)}):"]
    for c in apart:
        if c.comparability in ("artifact changed", "compiled for this host"):
            rows.append(_wall_row(c, c.comparability))
        else:
            rows.append(f"{c.id:34} {c.comparability}")
    return rows


def count_lines(comparison: cmp.Comparison) -> list[str]:
    """Instructions per call, B against A, for the drivers counted in both runs.

    A count does not move with the machine's load: a difference over
    ``count.VARYING`` with the pairs' ranges apart is a change in the work a call does.
    """
    both = cmp.counted_pairs(comparison.compared)
    if not both:
        return []
    rows = [f"{'driver':34} {'A instr':>11} {'B instr':>11} {'B/A':>7}  verdict"]
    for c in both:
        assert c.a_count and c.b_count
        ratio = c.count_ratio or 1.0
        verdict = "same work" if c.count_verdict == "same" else f"{ratio - 1:+.2%}"
        if c.a_count.varying or c.b_count.varying:
            verdict += " (a varying row)"
        rows.append(
            f"{c.id:34} {c.a_count.instructions_per_call:11,.0f} "
            f"{c.b_count.instructions_per_call:11,.0f} {ratio:7.4f}  {verdict}"
        )
    within = sum(c.count_verdict == "same" for c in both)
    rows.append(
        f"instructions per call: {within} of {len(both)} the same work as A "
        f"(within ±{count.VARYING:.0%}, or pairs' ranges overlapping)"
    )
    return rows


def claim_line(comparison: cmp.Comparison) -> str:
    made = comparison.claims_made
    text = (
        f"claims kept: {comparison.claims_kept} of {len(made)} (A's orderings between "
        f"neighbouring rows, interval excluding 1 and beyond ±{comparison.noise:.0%})"
    )
    if comparison.claims_reversed:
        text += "; reversed: " + ", ".join(
            f"{c.faster} < {c.slower}" for c in comparison.claims_reversed
        )
    return text


def gate_block(failures: list[str], fail_above: float | None, fail_above_count: float) -> str:
    rule = (f"wall time beyond ±{fail_above:.0%} with its interval excluding 1, "
            if fail_above is not None else "")  # fmt: skip
    rule += f"instructions beyond ±{fail_above_count:.0%}, a driver lost"
    if not failures:
        return f"gate: exit 0, nothing moved ({rule})"
    return "\n".join([f"gate: exit 1, {len(failures)} row(s) moved ({rule}):",
                      *(f"  {line}" for line in failures)])  # fmt: skip


def render(comparison: cmp.Comparison, a: Mapping[str, Record], b: Mapping[str, Record]) -> str:
    rows = [f"A = {comparison.a.run}, B = {comparison.b.run}: {comparison.basis_note}",
            *wall_lines(comparison)]  # fmt: skip
    apart = apart_lines(comparison)
    rows += [*(["", *apart] if apart else []), "", between_drivers(a, b), claim_line(comparison)]
    counts = count_lines(comparison)
    return "\n".join([*rows, *(["", *counts] if counts else [])])


def compare_runs(
    a_path: Path,
    b_path: Path,
    fail_above: float | None = None,
    fail_above_count: float | None = None,
    json_path: str | None = None,
) -> tuple[str, int]:
    """The text to print and the exit status; RunError for unreadable or mismatched runs."""
    a, b = load_run(a_path), load_run(b_path)
    comparison = cmp.compare(a, b)
    gating = fail_above is not None or fail_above_count is not None
    count_threshold = count.VARYING if fail_above_count is None else fail_above_count
    failures = cmp.gate(comparison, fail_above, count_threshold) if gating else []
    same = {c.id for c in comparison.compared}
    text = render(comparison, {r.id: r for r in a.drivers if r.ok and r.id in same},
                  {r.id: r for r in b.drivers if r.ok and r.id in same})  # fmt: skip
    if gating:
        text += "\n\n" + gate_block(failures, fail_above, count_threshold)
    if json_path is not None:
        data = json.dumps(cmp.to_json(comparison, fail_above, count_threshold if gating else None),
                          indent=1)  # fmt: skip
        if json_path == STDOUT:
            return data, 1 if failures else 0
        Path(json_path).write_text(data + "\n")
    return text, 1 if failures else 0


def main(args: argparse.Namespace) -> int:
    try:
        text, status = compare_runs(
            find_run(args.run_a), find_run(args.run_b),
            args.fail_above, args.fail_above_count, args.json,
        )  # fmt: skip
    except RunError as exc:
        print(f"callbench compare: error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return status
