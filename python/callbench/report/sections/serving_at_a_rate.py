"""The report's "Serving at a rate": per row and callers, the highest rate served within the
run's p99 bound (``callbench serve-rate``), its p50 and p99 beside the closed loop's at the
same callers, and what the figure is and is not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callbench.harness.load.arrival_times import BEYOND
from callbench.harness.load.rate_repeats import REPEATS
from callbench.harness.load.rate_search import KIND, MAX_CALLS, MIN_CALLS, STEP
from callbench.harness.load.rate_windows import POINT_MAX_S, WINDOW_S
from callbench.records import stats
from callbench.records.record import Record
from callbench.report.blocks import format as fmt
from callbench.report.sections.many_callers import calls, latency_us
from callbench.report.sections.serving_times import confirmed, times_table
from callbench.report.sections.serving_way import way

TITLE = "Serving at a rate"
__all__ = ["KIND", "TITLE", "bound_text", "screen", "section", "served"]
Points = Mapping[int, Sequence[Record]]


def served(points: Points | None) -> list[Record]:
    """The rows served at a rate, by callers then id."""
    return sorted((r for n in sorted(points or {}) for r in (points or {})[n]
                   if r.ok and r.serving is not None),
                  key=lambda r: (r.callers, r.processes, r.language, r.id, r.batch,
                                 _delay(r)))  # fmt: skip


def _delay(r: Record) -> tuple[int, bool]:
    """A batcher's D (-1: none), then gathered: a row's batchers after its callers, in order."""
    batcher = (r.serving or {}).get("batcher") or {}
    return int(batcher.get("max_delay_us", -1)), bool(batcher.get("gathered"))


def knee(serving: Mapping[str, Any]) -> float | None:
    """The lowest offered rate whose p99 passed the bound: where the queue took over."""
    over = [p["rate"] for p in serving["points"] if not p["within"]]
    return min(over) if over else None


def bound_text(ns: float) -> str:
    """A bound as people write one: 1 ms, 250 µs, 2 s."""
    for unit, size in (("s", 1e9), ("ms", 1e6)):
        if ns >= size:
            return f"{ns / size:g} {unit}"
    return f"{ns / 1e3:g} µs"


def repeated(serving: Mapping[str, Any]) -> bool:
    """Whether a record's rate came from a curve and repeated searches (else: one confirmed
    search, records before windows)."""
    return "rate_interval" in serving


def rate_cell(serving: Mapping[str, Any]) -> str:
    if serving.get("rate") is None:
        return "none within the bound"
    shown = calls(serving["rate"])
    if repeated(serving) and serving["repeats"] > 1:  # the median of the searches [interval]
        low, high = serving["rate_interval"]
        shown = f"{shown} [{calls(low)}–{calls(high)}]"
    elif repeated(serving):
        shown = f"{shown} (one search, --quick: no interval)"
    return f"at least {shown}" if serving.get("capped") else shown


def stable_cell(serving: Mapping[str, Any]) -> str:
    """How many of a row's points had windows that agreed."""
    points = serving["points"]
    return f"{sum(1 for p in points if p.get('stable')):,} of {len(points):,}"


def cells(r: Record) -> dict[str, str]:
    """A served row's figures, by the column that shows each."""
    s = r.serving
    assert s is not None
    at = confirmed(s)
    # A batcher's closed loop in requests as its rate is: bursts drained (not calls of B).
    drained = (s.get("batcher") or {}).get("drained_per_s")
    closed = s["closed_calls_per_s"] if drained else 1e9 / stats.median(r.samples)
    c50, _, c99 = latency_us(r)
    failed = knee(s)
    return {
        "row": f"`{r.id}`",
        "callers": str(r.callers),
        "way": way(r),
        "requests a second within the bound": rate_cell(s),
        "requests a second within the bound [95%]": rate_cell(s),
        "p50 µs at it": fmt.us(at["p50_ns"]) if at else fmt.NOT_SHOWN,
        "p99 µs at it": fmt.us(at["p99_ns"]) if at else fmt.NOT_SHOWN,
        "arrivals confirmed": f"{at['calls']:,}" if at else fmt.NOT_SHOWN,
        "arrivals at it": f"{at['calls']:,}" if at else fmt.NOT_SHOWN,
        "points stable": stable_cell(s) if repeated(s) else fmt.NOT_SHOWN,
        "closed loop calls a second": calls(closed) + (" (bursts drained)" if drained else ""),
        "closed p50 µs": c50,
        "closed p99 µs": c99,
        "rate ÷ closed loop": f"{s['rate'] / closed:.2f}" if s.get("rate") else fmt.NOT_SHOWN,
        "lowest rate over the bound": calls(failed) if failed is not None else fmt.NOT_SHOWN,
    }


# The report's columns (a run of one confirmed search a row, and one of repeated searches),
# and the README's fewer.
COLUMNS = ("row", "callers", "way", "requests a second within the bound", "p50 µs at it",
           "p99 µs at it", "arrivals confirmed", "closed loop calls a second", "closed p50 µs",
           "closed p99 µs", "rate ÷ closed loop", "lowest rate over the bound")  # fmt: skip
REPEATED_COLUMNS = ("row", "callers", "way", "requests a second within the bound [95%]",
                    "p50 µs at it", "p99 µs at it", "arrivals at it", "points stable",
                    "closed loop calls a second", "closed p50 µs", "closed p99 µs",
                    "rate ÷ closed loop", "lowest rate over the bound")  # fmt: skip
SCREEN = ("row", "callers", "way", "requests a second within the bound", "p99 µs at it",
          "closed loop calls a second", "closed p99 µs", "rate ÷ closed loop")  # fmt: skip


def table(
    rows: Sequence[Record], columns: Sequence[str] = COLUMNS, named: Mapping[str, str] = {}
) -> str:
    """The rows' cells in ``columns``, a column's header as ``named`` says where it does."""
    shown = [cells(r) for r in rows]
    header = [named.get(c, c) for c in columns]
    return fmt.table(header, [[row[c] for c in columns] for row in shown])


def screen(rows: Sequence[Record]) -> str:
    """The README's table: per row and callers the rate found, its p99, and the closed
    loop's calls a second and p99 at the same callers."""
    return table(rows, SCREEN)


def section(points: Points | None, chart: str | None = None) -> str:
    rows = served(points)
    skipped = sorted({f"`{r.id}` ({r.error})" for n in (points or {}) for r in (points or {})[n]
                      if r.status == "skipped"})  # fmt: skip
    if not rows:
        return ""
    first = rows[0].serving
    assert first is not None
    bounds = sorted({r.serving["bound_ns"] for r in rows if r.serving})
    bound = " and ".join(bound_text(b) for b in bounds)
    if all(r.serving is not None and repeated(r.serving) for r in rows):
        return _with_repeats(rows, bound, first, chart, skipped)
    parts = [
        f"Requests arrive on their own clock: at each offered rate, a Poisson schedule "
        f"(seeded, the same for every row) of about a second of arrivals, at least "
        f"{MIN_CALLS:,} and at most {MAX_CALLS:,} (twice each to confirm), "
        f"served by the row's callers {PACED} The figure is the highest rate whose p99 "
        f"stays within **{bound}** ({first['bound_from']}), "
        f"found within {STEP:.0%} by halving a bracket from the closed loop's rate, then "
        f"confirmed on other arrivals twice as many (MLPerf LoadGen's Server scenario; a "
        f"failed confirmation makes its rate a failing one and the search goes on below it). "
        f"A point's p99.9 is kept in its record only where {BEYOND} calls lie beyond it "
        f"({BEYOND * 1000:,} arrivals or more).",
        "",
        CLOSED_LOOP,
        "",
        table(rows),
    ]
    return "\n".join(parts + _ending(rows, chart, skipped, "the confirmation's arrivals"))


# How a paced point is served and timed: said once, for records of either method.
PACED = (
    "(contract 6's paced rounds: a free caller takes the next arrival, waits for its time, "
    "calls); each latency counts from the **arrival** to the call's end, so a request that "
    "waited behind a slow call carries the wait (a closed loop would start it late and lose "
    "it: coordinated omission)."
)

CLOSED_LOOP = (
    "What it is: the driver's own capacity on this machine, every output of the last point "
    "checked against the reference. What it is not: a service's. There is no network, no "
    "request parsing or serialisation, no batching queue, and the arrival clock is kept by "
    "the callers themselves on the driver's cores (a sleep, then a spin that yields the "
    "core, below 0.2 ms). The closed loop is the same driver, loaded once for both, at the "
    "same callers before its search: its calls a second the median of a few rounds of "
    "about 0.1 s, its p50 and p99 of calls back to back, where no call waits, so the two "
    "p99s differ by the queue."
)


def _with_repeats(
    rows: Sequence[Record], bound: str, first: Mapping[str, Any], chart: str | None,
    skipped: Sequence[str],
) -> str:  # fmt: skip
    """The section for records of a curve and repeated searches, its prose from them."""
    rule = first["windows_rule"]
    points = [p for r in rows if r.serving for p in r.serving["points"]]
    seconds = [p["span_ns"] / 1e9 for p in points]
    arrivals = [p["calls"] for p in points]
    unstable = sum(1 for p in points if not p.get("stable"))
    repeats = sorted({r.serving["repeats"] for r in rows if r.serving})
    shares = ", ".join(f"{share:.0%}" for share in first["curve"])
    searches = " or ".join(str(n) for n in repeats)
    turns = max(r.serving.get("in_turn", 1) for r in rows if r.serving)
    order = (f"The {turns} rows and N took turns: each loaded and its curve served, then the "
             "first search of each, then the second, and so on, so that each row's searches "
             "span the run (its driver loaded, idle, in between)." if turns > 1
             else "Each row and N's searches ran back to back.")  # fmt: skip
    again = sum(r.serving.get("served_again", 0) for r in rows if r.serving)
    if again:
        order += (f" {again:,} points were served again on other arrivals: the driver's "
                  "set-up had run past their start (the row's lead then lengthened).")  # fmt: skip
    rate = (f"{first['interval_method']}; a claim that one row or N serves more than "
            "another needs the intervals apart" if repeats != [1]
            else "what the one search found (--quick: no interval, so no claim)")  # fmt: skip
    most = (f", at most {rule['window_most_arrivals']:,}, shorter above that"
            if rule.get("window_most_arrivals") else "")  # fmt: skip
    text = (
        "Requests arrive on their own clock: at each offered rate, a Poisson schedule "
        f"(seeded) served by the row's callers without a break {PACED} A point is cut, in "
        f"arrival order, into windows of at least "
        f"{rule['window_s']:g} s and {rule['window_arrivals']:,} arrivals{most} (fewer where "
        f"{rule['agree']} would not fit {rule['point_max_s']:g} s; the tail a p90 where a "
        f"window is too small for a p99), a backlog carrying from one window into the next; "
        f"its figures are of its first windows whose last {rule['agree']} agree within "
        f"{rule['tolerance']:.0%} on served rate and tail (perf_analyzer's rule), else of all "
        f"{rule['most_windows']} and it is *unstable*. Every point serves its "
        f"{rule['most_windows']} windows in one schedule (the kits cannot stop one part-way "
        f"yet). Here the points held {min(seconds):.1f}–{max(seconds):.1f} s and "
        f"{min(arrivals):,}–{max(arrivals):,} arrivals; {unstable:,} of {len(points):,} were "
        f"unstable. The figure is the highest rate whose p99 stays within **{bound}** "
        f"({first['bound_from']}): a curve at {shares} of the closed loop's rate, then "
        f"{searches} searches that start from the curve's bracket (its highest passing rate "
        f"below its lowest failing one) and halve within {STEP:.0%} on other arrivals; the "
        f"rate is {rate}. {order} A point's p99.9 is kept only where {BEYOND} arrivals lie "
        "beyond it."
    )
    if any(r.serving.get("coarse") for r in rows if r.serving):
        text += (
            " These rows were served by bench's serving phase in **coarse mode**: "
            f"{searches} searches, windows of {rule['window_s']:g} s and each point's "
            f"arrivals due within {rule['point_max_s']:g} s, so their intervals are wider and "
            f"a slow call's p99 rests on fewer arrivals; `callbench serve-rate` serves a row at "
            f"the full pace "
            f"({REPEATS} searches, windows of {WINDOW_S:g} s, arrivals due within "
            f"{POINT_MAX_S:g} s)."
        )
    # The rate's column names the bound, and the interval's coverage: 95%, or bench's coarse
    # mode's 75% (3 searches, their smallest to largest).
    coverage = " and ".join(sorted({"75%" if r.serving.get("coarse") else "95%" for r in rows
                                    if r.serving and r.serving.get("repeats", 1) > 1}))  # fmt: skip
    rate_header = f"requests a second within p99 {bound}" + (f" [{coverage}]" if coverage else "")
    named = {"requests a second within the bound [95%]": rate_header}
    parts = [text, "", CLOSED_LOOP, "", table(rows, REPEATED_COLUMNS, named)]
    return "\n".join(parts + _ending(rows, chart, skipped, "the arrivals of a passing point at it"))


def _ending(
    rows: Sequence[Record], chart: str | None, skipped: Sequence[str], at: str
) -> list[str]:
    """Wait and service apart, the chart, the rows not served."""
    parts: list[str] = []
    apart = times_table(rows)
    if apart is not None:
        parts += [
            "",
            f"**Wait or service** at the rate found ({at}): wait is "
            "from an arrival's due time to its call's start (queueing behind busy callers, or "
            "a caller's late wake-up), service the call itself; the larger at the p99 sets "
            "it. *First arrival late* is its wait: the driver set up before the start the "
            "harness gave it (*lead left*, of the lead), so it is the clock's, not the "
            "set-up's. *Clock late* is the wait of the arrivals whose caller was already "
            "waiting for them: how late the sleep and spin woke it, apart from any queue. "
            "There is no hand-off here from a front that receives a request to a worker "
            "that serves it: a real service's front wakes a worker (tens of µs), which "
            "matters at a bound of 0.1 ms.",
            "",
            apart,
        ]
    if chart is not None:
        parts += ["", f"![p99 against the offered rate]({chart})"]
    if skipped:
        parts += ["", "Not served: " + "; ".join(skipped) + "."]
    return parts
