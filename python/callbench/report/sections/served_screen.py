"""The first screen's served answer (the README's ``callbench:callers`` block, where the run
has a serving phase): per language, the way of using this machine's cores that serves the
most requests a second with the p99 within the run's bound (the answer of *How best to use
the cores, within the bound*), its rate with its interval, its rate over one caller's at the
same bound, its p99 there, and what decides, each word on a figure of the run: which of wait
or service sets its p99 at the rate found, how much of its closed loop (its ceiling) the
bound leaves, and the cores that ceiling keeps busy."""

from __future__ import annotations

import re
from collections.abc import Sequence

from callbench.harness.load.arrival_times import sets_the_p99
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import Ratio
from callbench.report.sections.cores_within_bound import (
    Answer,
    HowServed,
    Points,
    ServedWay,
    answer,
    by_language,
    rate_text,
)
from callbench.report.sections.serving_at_a_rate import served
from callbench.report.sections.serving_times import confirmed

COARSE = " in bench's coarse mode"


def over_one_caller(way: ServedWay, ways: Sequence[ServedWay]) -> Ratio | None:
    """``way``'s rate over its language's one caller's at the same bound, its interval from
    the two intervals' far ends (the widest the repeats allow); None where one caller served
    nothing within the bound or did not run."""
    ones = [w for w in ways if w.asking == 0 and w.rate > 0]
    if not ones:
        return None
    one = ones[0]
    (low, high), (one_low, one_high) = way.interval, one.interval
    upper = high / one_low if one_low > 0 else float("inf")
    return Ratio(way.rate / one.rate, (low / one_high, upper), paired=False)


def _others(n: int) -> str:
    return f"{n} other" + ("s" if n > 1 else "")


def deciding(found: Answer, cores: int, nothing: int = 0, skipped: int = 0) -> str:
    """What decides the answer's rate, measured: which of wait or service sets its p99 at
    the rate found (the queue, and a batcher's hold, are wait), the share of its closed loop
    served within the bound, and the cores its closed loop keeps busy; an answer alone within
    the bound says how many of its language's other ways served ``nothing`` within it and how
    many were ``skipped`` (past the budget, out of contention)."""
    record = found.way.record
    serving = record.serving or {}
    parts = []
    at = confirmed(serving)
    times = at.get("times") if at else None
    sets = sets_the_p99(times) if times else None
    if times and sets:
        held = "the queue and the batcher's hold" if serving.get("batcher") else "the queue"
        what = f"the wait ({held})" if sets == "wait" else "the call"
        parts.append(f"{what} sets the p99: wait {fmt.us(times['wait']['p99_ns'])} µs, "
                     f"service {fmt.us(times['service']['p99_ns'])} µs")  # fmt: skip
    closed = float(serving.get("closed_calls_per_s") or 0.0)
    busy = record.cores_busy
    ceiling = (f"{found.way.rate / closed:.0%} of its closed loop's {closed:,.0f} a second"
               if closed > 0 else "")  # fmt: skip
    if busy is not None:
        keeps = f"{busy:.1f} of {cores} cores busy"
        ceiling = f"{ceiling}, which keeps {keeps}" if ceiling else f"its closed loop keeps {keeps}"
    parts += [ceiling] if ceiling else []
    if found.runner_up is not None and not found.apart:
        other = found.runner_up
        parts.append(f"its interval overlaps that of {other.name} ({rate_text(other)})")
    if found.runner_up is None:
        others = [f"{_others(nothing)} served nothing within it"] if nothing else []
        others += [f"{_others(skipped)} recorded as skipped, each saying why"] if skipped else []
        said = f" ({', '.join(others)})" if others else ", the only way planned"
        parts.append(f"the only way within the bound{said}")
    return "; ".join(parts) or "no point at the rate found to read"


def skipped(points: Points | None, language: str) -> int:
    """How many of ``language``'s planned ways the serving phase recorded as skipped."""
    return sum(1 for rows in (points or {}).values() for r in rows
               if r.language == language and r.status == "skipped")  # fmt: skip


def table(points: Points | None, cores: int) -> str | None:
    """Per language, its answer within the bound; a language where no way served any rate
    within it says so."""
    rows = []
    for language, ways in by_language(points).items():
        found = answer(ways)
        if found is None:
            rows.append([language, "none within the bound", "0", fmt.NOT_SHOWN, fmt.NOT_SHOWN,
                         "no way served any rate within the bound"])  # fmt: skip
            continue
        way = found.way
        times = confirmed(way.record.serving or {})
        ratio = over_one_caller(way, ways)
        shown = fmt.NOT_SHOWN if ratio is None else (
            "(one caller)" if way.asking == 0 else str(ratio))  # fmt: skip
        rows.append([language, f"{way.name}: `{way.record.id}`", rate_text(way), shown,
                     fmt.us(times["p99_ns"]) if times else fmt.NOT_SHOWN,
                     deciding(found, cores, sum(w.rate <= 0 for w in ways),
                              skipped(points, language))])  # fmt: skip
    if not rows:
        return None
    header = ["language", "best way within the bound: row", "requests a second [interval]",
              "× one caller", "p99 µs", "what decides"]  # fmt: skip
    return fmt.table(header, rows)


def head(points: Points | None) -> str:
    """The bound and how the rates were found, for the block's first line."""
    how = HowServed.of(served(points))
    searches = " or ".join(str(n) for n in how.repeats)
    coverage = ", ".join(c for _, c in how.coverages())
    return (f"Poisson arrivals, p99 within **{how.bound}** "
            f"({'; '.join(how.said)}); each rate the lower median of {searches} searches [their "
            f"smallest to largest: {coverage or 'no interval'} coverage]"
            f"{COARSE if how.coarse else ''}; the answer the way whose interval "
            f"lies above the runner-up's, else the one of the two asking less of the program; "
            f"the last point's outputs verified")  # fmt: skip


def none_served(points: Points | None) -> str | None:
    """Where the run planned ways to serve and served none (a call so slow that each way's
    points are past the phase's budget): what its records say, the cheapest way's estimate
    quoted; None where a way was served or none was planned."""
    rows = [r for found in (points or {}).values() for r in found]
    if not rows or served(points):
        return None
    skipped = [r for r in rows if r.status == "skipped" and r.error]
    if not skipped:
        return f"its serving phase served none of its {len(rows)} ways."
    first = min(skipped, key=lambda r: _estimate_s(str(r.error)))
    return (f"its serving phase served none of its {len(rows)} ways: each was recorded as "
            f"skipped, the cheapest saying \"{first.error}\" (`{first.id}`).")  # fmt: skip


def _estimate_s(error: str) -> float:
    """The seconds a skipped way's record estimates it would take (inf where it says none)."""
    found = re.search(r"about ([\d,.]+) s\b", error)
    return float(found[1].replace(",", "")) if found else float("inf")
