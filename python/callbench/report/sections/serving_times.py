"""A served row's point at its rate found, and its wait and service there (contract 6):
which of the two sets its p99."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callbench.harness.load.arrival_times import sets_the_p99
from callbench.records.record import Record
from callbench.report.blocks import format as fmt
from callbench.report.sections.serving_way import way


def confirmed(serving: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The point that stands for the rate found, if one was: its confirmation (one search),
    or the last passing point at it (repeated searches: the median is one repeat's rate)."""
    rate = serving.get("rate")
    repeated = "rate_interval" in serving
    found = [p for p in serving["points"]
             if (p["confirm"] or repeated) and p["within"] and p["rate"] == rate]  # fmt: skip
    return found[-1] if found else None


def time_cells(r: Record) -> dict[str, str] | None:
    """A served row's wait and service at the rate found (contract 6), or None (none found,
    or a contract 5 record that kept totals only)."""
    assert r.serving is not None
    at = confirmed(r.serving)
    times = at.get("times") if at else None
    if at is None or not times:
        return None
    late = times["clock_late"]
    late_text = (f"{fmt.us(late['p99_ns'])} ({times['clock_late_arrivals']:,} arrivals)"
                 if late else fmt.NOT_SHOWN)  # fmt: skip
    return {
        "row": f"`{r.id}`",
        "callers": str(r.callers),
        "way": way(r),
        "p99 µs": fmt.us(at["p99_ns"]),
        "p99 wait µs": fmt.us(times["wait"]["p99_ns"]),
        "p99 service µs": fmt.us(times["service"]["p99_ns"]),
        "sets the p99": str(sets_the_p99(times)),
        "first arrival late µs": fmt.us(times["first_late_ns"]),
        "clock late p99 µs": late_text,
        "lead left ms": f"{times['lead_left_ns'] / 1e6:.1f} of {times['lead_ns'] / 1e6:.4g}",
    }


def times_table(rows: Sequence[Record]) -> str | None:
    """Wait and service apart at each row's rate found: which sets its p99."""
    shown = [c for c in (time_cells(r) for r in rows) if c is not None]
    if not shown:
        return None
    columns = list(shown[0])
    return fmt.table(columns, [[row[c] for c in columns] for row in shown])
