"""The first screen's answer to many callers (the README's ``callbench:callers`` block):
per language, the best way to call the model from C callers on this machine (C its cores),
its throughput, its scaling against one caller, its p99, and one line on what decides.

What decides is read from the run, in this order: threads against processes where both ran
and they are apart (the GIL, or Node.js's one event loop, holds the threads back); a model
shared against one per caller of the same runtime where both ran at C; else how far the
best scales against C. Each line ends with what a caller costs in memory there.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import NOISE
from callbench.report.sections.many_callers import (
    Point,
    best_at,
    best_ways,
    calls,
    latency_us,
    more_calls,
    one_caller,
    scaling,
)
from callbench.report.sections.runtime_defaults import is_runtime_default

# What keeps a language's threads from running its calls side by side.
HOLDS_THREADS = {"Python": "the GIL", "Node.js": "its one event loop"}


def memory_per_caller(point: Point, every: Sequence[Point]) -> float | None:
    """The bytes each caller past the first adds at ``point`` over the row's one caller."""
    base = one_caller(point, every)
    if base is None or point.n <= 1 or not point.record.peak_rss_bytes:
        return None
    if not base.record.peak_rss_bytes:
        return None
    return (point.record.peak_rss_bytes - base.record.peak_rss_bytes) / (point.n - 1)


def deciding(best: Point, every: Sequence[Point], cores: int) -> str:
    """One line on what decides ``best``'s language's answer at ``cores`` callers."""
    language = best.record.language
    threads = best_at(every, language, cores, "threads")
    processes = best_at(every, language, cores, "processes")
    said = ""
    if threads is not None and processes is not None:
        ratio = more_calls(processes, threads)
        held = HOLDS_THREADS.get(language, "a lock in the binding")
        if ratio.costs_more(NOISE):
            said = f"processes beat threads {ratio}: {held} holds the threads back"
        elif ratio.costs_less(NOISE):
            said = f"threads beat processes {more_calls(threads, processes)}: no copy to load"
        else:
            said = f"threads and processes not apart ({ratio})"
    if not said:
        # A twin keeping its runtime's default set-up holds the model as its row does:
        # it is no second holding (sections/runtime_defaults reads it).
        beside = [p for p in every if p.n == cores and p.way == "threads"
                  and p.record.language == language and not is_runtime_default(p)
                  and p.record.runtime == best.record.runtime]  # fmt: skip
        shared = [p for p in beside if p.holds == "shared"]
        own = [p for p in beside if p.holds != "shared"]
        if shared and own:
            a, b = max(own, key=lambda p: p.calls_per_s), max(shared, key=lambda p: p.calls_per_s)
            ratio = more_calls(a, b)
            said = (f"a model per caller does {ratio} a shared one's calls: a shared "
                    f"session's contention" if ratio.costs_more(NOISE) else
                    f"a shared model keeps up with one per caller ({ratio})")  # fmt: skip
    if not said:
        scale = scaling(best, every)
        if scale is None:
            said = "no one-caller point to scale against"
        elif scale.costs_more(NOISE):
            said = f"calls run side by side: {scale} one caller's on {cores} cores"
        elif scale.costs_less(NOISE):
            said = f"{cores} callers do less than one ({scale}): they contend for the cores"
        else:
            said = f"no clear gain over one caller ({scale}): the calls take turns"
    memory = memory_per_caller(best, every)
    if memory is not None:
        said += f"; {fmt.megabytes(max(0.0, memory))} MB a caller"
    return said


def table(every: Sequence[Point], cores: int) -> str:
    """Per language, its best point at ``cores`` callers (threads or processes)."""
    rows = []
    for language in sorted({p.record.language for p in every}):
        ways = best_ways(every, language, cores)
        if not ways:
            continue
        best = max(ways, key=lambda p: p.calls_per_s)
        low, high = best.interval
        scale = scaling(best, every)
        rows.append([language, f"`{best.record.id}` in {best.shown_way} ({best.holds})",
                     f"{calls(best.calls_per_s)} [{calls(low)}–{calls(high)}]",
                     str(scale) if scale is not None else fmt.NOT_SHOWN,
                     latency_us(best.record)[2], deciding(best, every, cores)])  # fmt: skip
    header = ["language", f"best way from {cores} callers", "calls a second [95%]",
              "× one caller", "p99 µs", "what decides"]  # fmt: skip
    return fmt.table(header, rows)
