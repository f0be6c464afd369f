"""The report's "Many callers": throughput from N callers, in threads and in processes.

From the callers sweep (``sweep.kind`` "callers": N threads of one process; "processes": N
copies of one caller each). A point's throughput is all its callers' calls a second
(1 / the round's per-call time, whose median's 95% interval it inverts); its scaling is
against the same row at one caller (a callers-only row's, against its runtime's row that
shares the model), a ratio of medians of two groups with a bootstrap interval (the groups
ran apart, so their rounds do not pair). A claim follows the report's rule: its interval
excludes 1 and it is further from 1 than the noise threshold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from callbench.records import stats
from callbench.records.record import Record
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import NOISE, Ratio

TITLE = "Many callers"
Points = Mapping[int, Sequence[Record]]


@dataclass(frozen=True)
class Point:
    record: Record
    n: int
    way: str  # "threads" or "processes"

    @property
    def calls_per_s(self) -> float:
        return 1e9 / self.record.median_ns

    @property
    def interval(self) -> stats.Interval:
        low, high = self.record.interval_ns
        return 1e9 / high, 1e9 / low

    @property
    def shown_way(self) -> str:
        """How the callers ran, as the table says it: a Node.js row's threads are callers in
        flight on its one event loop, or worker threads (the result's ``callers_are``)."""
        are = str(self.record.notes.get("callers_are") or "")
        if self.way == "threads" and self.n > 1 and "event loop" in are:
            return "in flight on one event loop"
        if self.way == "threads" and self.n > 1 and are == "worker_threads":
            return "worker threads"
        return self.way

    @property
    def holds(self) -> str:
        if self.way == "processes":
            return "a model per process"
        if self.n == 1:
            return "one caller"
        # The result's notes say it (contract 4): roles.SHARED or roles.PER_CALLER.
        return str(self.record.notes.get("callers_hold") or "shared")


def points(threads: Points | None, processes: Points | None) -> list[Point]:
    """Every verified point of both sweeps, row by row, N by N, threads first."""
    found = [Point(r, n, way) for way, sweep in (("threads", threads), ("processes", processes))
             for n, records in (sweep or {}).items() for r in records if r.ok]  # fmt: skip
    return sorted(found, key=lambda p: (p.record.language, p.record.id, p.way != "threads", p.n))


def one_caller(point: Point, every: Sequence[Point]) -> Point | None:
    """The point a scaling is taken against: the same row at one caller, else (a row that
    runs at N > 1 alone) its language's row of the same runtime at one caller."""
    ones = [p for p in every if p.n == 1 and p.way == "threads"]
    same = [p for p in ones if p.record.id == point.record.id]
    twin = [p for p in ones if (p.record.language, p.record.runtime)
            == (point.record.language, point.record.runtime)]  # fmt: skip
    found = same or twin
    return found[0] if found else None


def scaling(point: Point, every: Sequence[Point]) -> Ratio | None:
    """Throughput at ``point`` over one caller's: one caller's cost per call over N's."""
    base = one_caller(point, every)
    if base is None:
        return None
    value, interval = stats.ratio_of_medians(point.record.samples, base.record.samples)
    return Ratio(value, interval, paired=False)


def latency_us(record: Record) -> tuple[str, str, str]:
    """p50, p90 and p99 of one call as its caller saw it (every caller's latency round), µs."""
    samples = record.latency_samples()
    if samples is None or not len(samples):
        return fmt.NOT_SHOWN, fmt.NOT_SHOWN, fmt.NOT_SHOWN
    p50, p90, p99 = stats.percentiles(samples, (50, 90, 99))
    return fmt.us(p50), fmt.us(p90), fmt.us(p99)


def calls(value: float) -> str:
    """Calls a second: whole ones, three digits below 100 (a ResNet-50 makes 25 here)."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def table(every: Sequence[Point]) -> str:
    rows = []
    for p in every:
        low, high = p.interval
        scale = scaling(p, every)
        p50, p90, p99 = latency_us(p.record)
        memory = fmt.megabytes(p.record.peak_rss_bytes) if p.record.peak_rss_bytes else "-"
        scaled = str(scale) if scale is not None else fmt.NOT_SHOWN
        busy = f"{p.record.cores_busy:.2f}" if p.record.cores_busy is not None else "-"
        rows.append([f"`{p.record.id}`", str(p.n), p.shown_way, p.holds,
                     f"{calls(p.calls_per_s)} [{calls(low)}–{calls(high)}]", scaled, busy, p50,
                     p90, p99, memory])  # fmt: skip
    header = ["row", "N", "in", "the model", "calls a second [95%]", "× one caller",
              "cores busy", "p50 µs", "p90 µs", "p99 µs", "peak MB"]  # fmt: skip
    return fmt.table(header, rows)


def lines(every: Sequence[Point], cores: int) -> dict[tuple[str, str], list[Point]]:
    """The chart's lines: per language and way, the row with the most calls a second at
    N = the cores (else at its largest N), each of its points in N order."""
    drawn: dict[tuple[str, str], list[Point]] = {}
    for language in sorted({p.record.language for p in every}):
        for way in ("threads", "processes"):
            mine = [p for p in every if p.record.language == language and p.way == way]
            if not mine:
                continue
            at = cores if any(p.n == cores for p in mine) else max(p.n for p in mine)
            best = max((p for p in mine if p.n == at), key=lambda p: p.calls_per_s)
            row = [p for p in mine if p.record.id == best.record.id]
            # A processes line starts where its row's one caller is (the threads' point).
            base = one_caller(best, every) if way == "processes" else None
            if base is not None:
                row.append(base)
            drawn[(language, way)] = sorted(row, key=lambda p: p.n)
    return drawn


def best_at(every: Sequence[Point], language: str, n: int, way: str) -> Point | None:
    mine = [p for p in every if p.record.language == language and p.n == n and p.way == way]
    return max(mine, key=lambda p: p.calls_per_s, default=None)


def best_ways(every: Sequence[Point], language: str, n: int) -> list[Point]:
    """``language``'s best point at ``n`` in threads and in processes, where each ran."""
    return [b for way in ("threads", "processes")
            if (b := best_at(every, language, n, way)) is not None]  # fmt: skip


def more_calls(a: Point, b: Point) -> Ratio:
    """``b``'s cost per call over ``a``'s: above 1 when ``a`` does more calls a second (a
    ratio of medians of two groups, bootstrap interval)."""
    value, interval = stats.ratio_of_medians(a.record.samples, b.record.samples)
    return Ratio(value, interval, paired=False)


def answer(every: Sequence[Point], cores: int) -> list[str]:
    """Per language, the best way at N = the cores, and threads against processes."""
    lines = []
    for language in sorted({p.record.language for p in every}):
        ways = best_ways(every, language, cores)
        if not ways:
            continue
        best = max(ways, key=lambda p: p.calls_per_s)
        scale = scaling(best, every)
        said = (f"**{language}**: at {cores} callers, `{best.record.id}` in {best.shown_way} "
                f"({best.holds}): {calls(best.calls_per_s)} calls a second")  # fmt: skip
        if scale is not None:
            gain = ("more than one caller" if scale.costs_more(NOISE) else
                    "less than one caller" if scale.costs_less(NOISE) else
                    "no clear gain over one caller")  # fmt: skip
            said += f", {scale} one caller's ({gain})"
        other = [p for p in ways if p is not best]
        if other:
            ratio = more_calls(best, other[0])
            verdict = (f"{best.way} beat {other[0].way} (`{other[0].record.id}`) by {ratio}"
                       if ratio.costs_more(NOISE) else
                       f"{best.way} and {other[0].way} (`{other[0].record.id}`) are not "
                       f"apart beyond the noise ({ratio})")  # fmt: skip
            said += f"; {verdict}"
        lines.append(f"- {said}.")
    return lines


def rounds_of(every: Sequence[Point]) -> str:
    """The rounds the points ran (round indices), one figure where they agree."""
    found = sorted({len({r.index for r in p.record.rounds}) for p in every})
    return str(found[0]) if len(found) == 1 else f"{found[0]}–{found[-1]}"


def section(threads: Points | None, processes: Points | None, cores: int,
            chart: str | None = None, defaults: Sequence[str] = ()) -> str:  # fmt: skip
    """The section's text: what it measures, the answer per language, what each runtime's
    default set-up costs (``defaults``: sections/runtime_defaults' lines), the chart, the
    table."""
    every = points(threads, processes)
    if not every:
        return "No point of the callers sweep was verified in this run."
    counts = sorted({p.n for p in every})
    intro = (
        "N callers call one row at once, closed loop (each starts its next call when its last "
        "returns), at batch 1 and one intra-op thread: in **threads** of one process (the "
        "kit's callers, the model shared or per caller as the row's runtime documents; "
        "Node.js's in flight on its one event loop, or in worker threads) and, for Python "
        "and Node.js, in **processes** (N copies of the driver, one caller and one model "
        "each, as gunicorn's or uvicorn's workers, Node's cluster). Calls a second count "
        "every caller's calls; every caller's outputs were verified. × one caller is the "
        "throughput over "
        "the same row's at one caller (a ratio of medians of two groups, bootstrap 95% "
        f"interval); a claim needs that interval to exclude 1 and a ratio beyond "
        f"{NOISE:.0%}. Cores busy: the callers' CPU time over the round's span (median of "
        f"rounds): the callers' threads, a runtime's own pool threads where the kit's clock "
        f"is the process's, Node.js's whole process. p50, p90 and p99 are of one call as its "
        f"caller saw it, from each point's "
        f"latency round (every caller's calls timed one by one, all callers at once). Peak "
        f"MB: the process's, or the copies' added up (pages they share counted in each). "
        f"Counts: {', '.join(map(str, counts))}; {rounds_of(every)} rounds a point (bench "
        f"runs half its rounds here, so the intervals are wider than the main table's)."
    )
    limits = (
        f"What this {cores}-core machine can show: whether a row's calls run side by side at "
        f"all (a lock, the GIL, a shared session's contention) and what oversubscribing "
        f"the cores costs at {2 * cores}. What it cannot: scaling beyond {cores}× (there "
        f"are no more cores), and whether a row that scales to {cores} keeps scaling on a "
        f"16-core host, where memory bandwidth and a shared session's locks bite later; a "
        f"2-core VM's neighbours also move it more than a larger host's."
    )
    parts = [intro, "", limits, "", f"### The answer at N = {cores} (the cores)", "",
             *answer(every, cores), ""]  # fmt: skip
    if defaults:
        parts += ["### What each runtime's default set-up costs", "",
                  "Each row below is set up for many callers its runtime's documented way; "
                  "its twin keeps the runtime's default (docs/contract.md, callers).", "",
                  *defaults, ""]  # fmt: skip
    if chart:
        parts += [f"![throughput against callers]({chart})", ""]
    return "\n".join([*parts, table(every)])
