"""Checks before a time counts: the outputs against the reference, and what a driver echoes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from callbench.harness.expected import Checked, Expected, worst
from callbench.records.record import Record


def echo_problem(result: dict[str, Any], asked: dict[str, Any], rounds: int) -> str | None:
    """What the result line says about the run that differs from what was asked."""
    for key, want in asked.items():
        if result.get(key) != want:
            return f"result line says {key} {result.get(key)!r}, the harness asked for {want!r}"
    reported = result.get("rounds")
    if not isinstance(reported, list) or len(reported) != rounds:
        count = len(reported) if isinstance(reported, list) else "no"
        return f"result line lists {count} rounds, the driver was asked for {rounds}"
    return None


def settle(
    record: Record,
    result: dict[str, Any],
    asked: dict[str, Any],
    rounds: int,
    outputs: Path,
    expected: Expected,
    check: Callable[[], tuple[list[Checked], str | None]] | None = None,
) -> str | None:
    """Fill ``record`` from a driver's result line; what keeps its time from counting, if any.
    The outputs are ``expected.check(outputs)``'s, or ``check``'s where a copy's hold only
    some of the calls (a paced point's slots under a shared counter)."""
    problem = echo_problem(result, asked, rounds)
    if problem is None:
        checked, problem = expected.check(outputs) if check is None else check()
        if (nearest := worst(checked)) is not None:
            record.max_abs_error, record.tolerance = nearest.max_abs_error, nearest.tolerance
        if len(expected.outputs) > 1:
            record.output_errors = {
                c.name: {"max_abs_error": c.max_abs_error, "tolerance": c.tolerance}
                for c in checked
            }
    record.runtime_version = str(result.get("runtime_version") or "") or None
    record.peak_rss_bytes = _int_or_none(result.get("peak_rss_bytes"))
    notes = result.get("notes")
    # The driver's notes, beside those the harness wrote at the start (traces.verify's).
    record.notes = {**(notes if isinstance(notes, dict) else {}), **record.notes}
    if expected.reference_note is not None:
        record.notes["reference"] = expected.reference_note
    return problem


def _int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
