"""The report's "How best to use the cores, within the bound": per language, each way of using
the cores served at a rate (bench's serving phase, or ``callbench serve-rate``): its highest
rate within the run's p99 bound with its interval, its p99 there with wait and service
apart, its peak memory and what it asks of the program, beside its closed loop (the ceiling
the way reaches when latency does not matter). A way is named the answer only where its
interval is apart from the runner-up's; where they overlap, the way that asks less of the
program is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from callbench.records.record import Record
from callbench.registry import DRIVERS
from callbench.report.blocks import format as fmt
from callbench.report.sections.serving_at_a_rate import bound_text, cells, served
from callbench.report.sections.serving_times import time_cells
from callbench.roles import CALLERS_ONLY

TITLE = "How best to use the cores, within the bound"
Points = Mapping[int, Sequence[Record]]
PER_CALLER = {s.id for s in DRIVERS if CALLERS_ONLY in s.roles}
# What a way asks of the program, least first: where two ways' intervals overlap, the one
# earlier here is the answer.
ASKS = ("nothing", "an option", "a pool of threads", "copies of the program", "a batcher")


@dataclass(frozen=True)
class HowServed:
    """How a run's served rows were found, as each of its records says: the bounds, where
    they came from, the searches a rate took and whether in bench's coarse mode."""

    bounds: list[float]
    said: list[str]
    repeats: list[int]
    coarse: bool

    @classmethod
    def of(cls, rows: Sequence[Record]) -> HowServed:
        serving = [r.serving or {} for r in rows]
        return cls(sorted({float(s["bound_ns"]) for s in serving}),
                   sorted({str(s.get("bound_from")) for s in serving}),
                   sorted({int(s.get("repeats", 1)) for s in serving}),
                   any(s.get("coarse") for s in serving))  # fmt: skip

    @property
    def bound(self) -> str:
        return " and ".join(bound_text(b) for b in self.bounds)

    def coverages(self) -> list[tuple[int, str]]:
        """Each count of searches that gives an interval, with its coverage (the smallest to
        largest of n rates: 1 - 2 x 0.5^n)."""
        return [(n, f"{1 - 2 * 0.5**n:.0%}") for n in self.repeats if n > 1]


@dataclass(frozen=True)
class ServedWay:
    """One way of using the cores as a served row: how, what it asks, and its rate."""

    record: Record
    name: str
    asks: str
    asking: int  # its place in ASKS

    @property
    def rate(self) -> float:
        return float((self.record.serving or {}).get("rate") or 0.0)

    @property
    def interval(self) -> tuple[float, float]:
        found = (self.record.serving or {}).get("rate_interval")
        return (float(found[0]), float(found[1])) if found else (self.rate, self.rate)

    @property
    def repeats(self) -> int:
        return int((self.record.serving or {}).get("repeats", 1))

    def apart_above(self, other: ServedWay) -> bool:
        """Whether this way's interval lies wholly above ``other``'s (both from repeats)."""
        return self.repeats > 1 and other.repeats > 1 and self.interval[0] > other.interval[1]


def way_of(r: Record) -> ServedWay:
    """How a served row spends the cores, and what that asks of the program."""
    batcher = (r.serving or {}).get("batcher")
    if batcher:
        gathered = ", gathered" if batcher.get("gathered") else ""
        d = batcher["max_delay_us"]
        return ServedWay(r, f"1 caller through a batcher, B {batcher['batch']}, D {d} µs"
                         f"{gathered}", f"a batcher: up to {batcher['batch']} requests a call, "
                         f"the oldest held at most {d} µs", 4)  # fmt: skip
    if r.threads > 1:
        return ServedWay(r, f"1 caller, {r.threads} intra-op threads",
                         "an option when the model is loaded", 1)  # fmt: skip
    if r.processes > 1:
        return ServedWay(r, f"{r.processes} processes",
                         f"{r.processes} copies of the program, a model each", 3)  # fmt: skip
    if r.callers > 1:
        holds = "a model each" if r.id in PER_CALLER else "the model shared"
        are = str(r.notes.get("callers_are") or "")
        how = "in flight on one event loop" if "event loop" in are else "in threads"
        return ServedWay(r, f"{r.callers} callers {how}, {holds}",
                         f"a pool of {r.callers} callers, {holds}", 2)  # fmt: skip
    return ServedWay(r, "1 caller", "nothing", 0)


def by_language(points: Points | None) -> dict[str, list[ServedWay]]:
    """Each language's served ways, most requests a second first."""
    found: dict[str, list[ServedWay]] = {}
    for r in served(points):
        found.setdefault(r.language, []).append(way_of(r))
    return {language: sorted(ways, key=lambda w: (-w.rate, w.asking))
            for language, ways in sorted(found.items())}  # fmt: skip


def rate_text(way: ServedWay) -> str:
    low, high = way.interval
    shown = f"{way.rate:,.0f}"
    return f"{shown} [{low:,.0f}–{high:,.0f}]" if way.repeats > 1 else f"{shown} (no interval)"


@dataclass(frozen=True)
class Answer:
    """A language's answer among its served ways: the way, the runner-up it was weighed
    against (None where it served alone), and whether their intervals are apart."""

    way: ServedWay
    runner_up: ServedWay | None
    apart: bool


def answer(ways: Sequence[ServedWay]) -> Answer | None:
    """The way that serves the most where its interval is apart from the runner-up's; else
    the two overlap and the one that asks less is the answer (None: none served)."""
    passing = [w for w in ways if w.rate > 0]
    if not passing:
        return None
    best = passing[0]
    if len(passing) == 1:
        return Answer(best, None, apart=False)
    second = passing[1]
    if best.apart_above(second):
        return Answer(best, second, apart=True)
    simpler = min((best, second), key=lambda w: w.asking)
    return Answer(simpler, best if simpler is second else second, apart=False)


def verdict(ways: Sequence[ServedWay]) -> str:
    """The answer in words, with the runner-up's rate beside it."""
    found = answer(ways)
    if found is None:
        return "no way served any rate within the bound"
    best, second = found.way, found.runner_up
    if second is None:
        return (f"only **{best.name}** served within the bound: {rate_text(best)} requests a "
                f"second; it asks {best.asks}")  # fmt: skip
    if found.apart:
        return (f"**{best.name}** serves the most: {rate_text(best)} requests a second, apart "
                f"from the runner-up, {second.name} ({rate_text(second)}); it asks "
                f"{best.asks}")  # fmt: skip
    first, other = sorted((best, second), key=lambda w: (-w.rate, w.asking))
    return (f"{first.name} ({rate_text(first)}) and {other.name} ({rate_text(other)}) "
            f"overlap: **{best.name}** is the answer, it asks less of the program "
            f"({best.asks})")  # fmt: skip


def row_of(way: ServedWay) -> list[str]:
    shown = cells(way.record)
    times = time_cells(way.record) or {}
    memory = way.record.peak_rss_bytes
    return [way.name, f"`{way.record.id}`", rate_text(way), shown["p99 µs at it"],
            times.get("p99 wait µs", fmt.NOT_SHOWN), times.get("p99 service µs", fmt.NOT_SHOWN),
            fmt.megabytes(memory) if memory else fmt.NOT_SHOWN, way.asks,
            shown["closed loop calls a second"]]  # fmt: skip


def section(points: Points | None) -> str | None:
    """The section's text: how it was found, the answer per language, the table."""
    found = by_language(points)
    if not found:
        return None
    how = HowServed.of([r for ways in found.values() for r in (w.record for w in ways)])
    bound = how.bound
    coverage = ", ".join(f"{n} searches: their smallest to largest, {c}"
                         for n, c in how.coverages())  # fmt: skip
    intro = (
        f"Which way of using this machine's cores serves the most requests a second with "
        f"the p99 within **{bound}** ({'; '.join(how.said)}), per language: each way served at "
        f"a rate as in *Serving at a rate* (its Poisson arrivals, its p99 counted from each "
        f"arrival). Its rate is the lower median of its searches with their interval "
        f"({coverage or 'one search: no interval'}); a way is the answer only where its "
        f"interval lies wholly above the runner-up's, else of the two the way that asks less "
        f"of the program is (nothing, then an option, a pool of threads, copies of the "
        f"program, a batcher). Its p99 there is split into wait (queueing, and a batcher's "
        f"hold for its batch to fill) and service (the call). Beside it, its closed loop: the "
        f"ceiling the way reaches when latency does not matter (a batcher's, a burst drained "
        f"B a call), as in *How best to use the cores* below."
    )
    if how.coarse:
        intro += (
            " Served by bench's serving phase in **coarse mode**: fewer searches, shorter "
            "windows and points than `callbench serve-rate`, so wider intervals; per language "
            "only the ways the closed loop left in contention (within 2x of its best way's calls a "
            "second at the cores; the others are listed as not served in *Serving at a "
            "rate*), and one batcher chosen by a coarse pass (each B served as a curve, the "
            "one passing most searched). `callbench serve-rate` serves any way at the full "
            "pace: other B and D, more searches, narrower intervals."
        )
    answers = [f"- **{language}**: {verdict(ways)}." for language, ways in found.items()]
    header = ["language", "way", "row", f"requests a second within p99 {bound} [interval]",
              "p99 µs there", "p99 wait µs", "p99 service µs", "peak MB",
              "it asks of the program", "closed loop a second (the ceiling)"]  # fmt: skip
    table = [[language, *row_of(w)] for language, ways in found.items() for w in ways]
    return "\n".join([intro, "", *answers, "", fmt.table(header, table)])
