"""figures.csv beside report.md: every driver row of every run in the report with all of
its figures, one column each, for a spreadsheet or a script (the Markdown tables keep
only what a reader needs)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from callbench.records import count as derive
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.report.blocks.ratios import ratio
from callbench.report.blocks.tables import (
    LatenciesUnreadableError,
    base_record,
    latency_percentiles_ns,
    ordered,
)

NAME = "figures.csv"
COLUMNS = (
    "run", "driver", "language", "runtime", "runtime_version", "status", "call",
    "median_us", "interval_low_us", "interval_high_us", "base", "ratio_to_base",
    "ratio_low", "ratio_high", "p50_us", "p90_us", "p99_us", "load_ms", "peak_rss_mb",
    "max_abs_error", "instructions_per_call", "est_cycles_per_call", "flagged_rounds",
)  # fmt: skip


def _percentiles(record: Record) -> list[float | None]:
    """The report's p50, p90, p99 in µs (none under 1 µs a call, as there)."""
    try:
        found = latency_percentiles_ns(record)
    except LatenciesUnreadableError:
        found = None
    return [None, None, None] if found is None else [v / 1e3 for v in found]


def figures_csv(runs: Sequence[Run]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for run in runs:
        base = base_record(run.drivers)
        for r in ordered(run.drivers):
            versus = ratio(r, base) if r.ok and base is not None else None
            block = r.count
            counted = derive.summary(block) if block and block.get("status") == "ok" else {}
            writer.writerow([
                run.name, r.id, r.language, r.runtime, r.runtime_version or "", r.status,
                str(r.notes.get("call") or ""),
                *((r.median_ns / 1e3, r.interval_ns[0] / 1e3, r.interval_ns[1] / 1e3)
                  if r.ok else (None, None, None)),
                base.id if base else "",
                *((versus.value, *versus.interval) if versus else (None, None, None)),
                *(_percentiles(r) if r.ok else [None, None, None]),
                r.load_ns / 1e6 if r.load_ns is not None else None,
                r.peak_rss_bytes / 1e6 if r.peak_rss_bytes is not None else None,
                r.max_abs_error, counted.get("instructions_per_call"),
                counted.get("est_cycles_per_call"), r.flagged_rounds,
            ])  # fmt: skip
    return out.getvalue()
