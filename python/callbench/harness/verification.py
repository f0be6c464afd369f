"""Checks before a time counts: the outputs against the reference, and what a driver echoes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from callbench.harness.options import ATOL
from callbench.model.artifacts import REFERENCE
from callbench.records.record import Record


def compare(
    outputs: Path, reference: np.ndarray, tolerance: float = ATOL
) -> tuple[float | None, str | None]:
    """Max abs error of the outputs file against ``reference``, and a problem if any."""
    if not outputs.is_file():
        return None, "wrote no outputs file"
    got = np.fromfile(outputs, dtype="<f4")
    want = reference.reshape(-1)
    if got.size != want.size:
        return None, f"wrote {got.size} outputs, expected {want.size}"
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    if not np.isfinite(diff).all():
        bad = int(np.flatnonzero(~np.isfinite(diff))[0])
        return None, f"output {bad} is {got[bad]} (NaN/Inf or never stored)"
    worst = int(diff.argmax())
    error = float(diff[worst])
    if error > tolerance:
        return error, (
            f"outputs differ from {REFERENCE} by {error:.3g} at sample {worst} "
            f"(got {got[worst]:.6g}, want {want[worst]:.6g}; tolerance {tolerance:g})"
        )
    return error, None


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
    want: np.ndarray,
    tolerance: float,
) -> str | None:
    """Fill ``record`` from a driver's result line; what keeps its time from counting, if any."""
    problem = echo_problem(result, asked, rounds)
    if problem is None:
        record.max_abs_error, problem = compare(outputs, want, tolerance)
    record.runtime_version = str(result.get("runtime_version") or "") or None
    record.peak_rss_bytes = _int_or_none(result.get("peak_rss_bytes"))
    notes = result.get("notes")
    record.notes = notes if isinstance(notes, dict) else {}
    return problem


def _int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
