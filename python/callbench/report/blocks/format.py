"""How figures are written in the report: Markdown tables, µs, seconds, ratios, intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

from callbench.records import stats

NOT_SHOWN = "–"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def us(ns: float) -> str:
    """Nanoseconds as microseconds, to about three significant digits."""
    value = ns / 1e3
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def us_interval(interval: stats.Interval) -> str:
    return f"{us(interval[0])}–{us(interval[1])}"


def seconds_per_million(ns: float) -> str:
    """What a million calls at ``ns`` per call take, in seconds."""
    return f"{ns * 1e6 / 1e9:.2f}"


def times(value: float) -> str:
    """A ratio, to about three significant digits."""
    if not math.isfinite(value):
        return NOT_SHOWN
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def ratio_cell(value: float, interval: stats.Interval) -> str:
    """``2.31× (2.20–2.45)``: a ratio with its 95% interval (none from a single round)."""
    if not all(map(math.isfinite, interval)):
        return f"{times(value)}× (no interval: one round)"
    return f"{times(value)}× ({times(interval[0])}–{times(interval[1])})"


def megabytes(n_bytes: float) -> str:
    return f"{n_bytes / 1e6:.0f}"


def one_line(text: str | None) -> str:
    """An error message fit for a table cell."""
    return " ".join((text or "").split()).replace("|", "/")


LISTED_AT_MOST = 10  # more driver ids than this in a paragraph become their count


def driver_ids(ids: Sequence[str]) -> str:
    """The ids in backticks, or, past ``LISTED_AT_MOST``, how many (a paragraph stays
    readable; the tables name every row)."""
    if len(ids) > LISTED_AT_MOST:
        return f"{len(ids)} drivers"
    return ", ".join(f"`{i}`" for i in ids)
