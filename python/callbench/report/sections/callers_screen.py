"""The first screen's answer to many callers (the README's ``callbench:callers`` block):
per language, the best way to call the model from C callers on this machine (C its cores),
its throughput, its scaling against one caller, its p99, and one line on what decides.
Where C callers do less than one, the answer is one caller.

What decides is read from the run, each word on a figure, in this order: threads against
processes where both ran and they are apart (the GIL, or Node.js's one event loop, holds the
threads back where the threads left a core idle); a model shared against one per caller of
the same runtime where both ran at C; else the cores the callers kept busy (their CPU time
over the round's span, ``Record.cores_busy``): a lock (the GIL, an event loop) where they
left a core they could use idle, the cores where they kept them busy and each call took
longer. Each line ends with what a caller adds in memory, signed.
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
# Callers busier than min(N, C) cores less this kept every core they could use busy.
IDLE_MARGIN = 0.5
# Two peaks of one row within this share of one caller's peak are not told apart: a stated
# rule (the record keeps one peak a point), not a measured spread.
PEAK_NOISE = 0.05


def memory_per_caller(point: Point, every: Sequence[Point]) -> float | None:
    """The bytes each caller past the first adds at ``point`` over the row's one caller,
    signed (two processes' peaks follow how each sized its heap: a negative figure is
    shown as it is, never clamped)."""
    base = one_caller(point, every)
    if base is None or point.n <= 1 or not point.record.peak_rss_bytes:
        return None
    if not base.record.peak_rss_bytes:
        return None
    return (point.record.peak_rss_bytes - base.record.peak_rss_bytes) / (point.n - 1)


def memory_said(point: Point, every: Sequence[Point]) -> str:
    """ "30 MB a caller", or within the noise: the peaks at N and at one caller apart by less
    than PEAK_NOISE of the one caller's peak (one peak a point: no repeats to size it)."""
    memory = memory_per_caller(point, every)
    base = one_caller(point, every)
    if memory is None or base is None or not base.record.peak_rss_bytes:
        return ""
    within = abs(memory) * (point.n - 1) < PEAK_NOISE * base.record.peak_rss_bytes
    said = f"{fmt.megabytes(memory)} MB a caller"
    if within:
        said += f" (within the noise: ±{PEAK_NOISE:.0%} of one caller's peak)"
    return said + heap_said(point, base)


def heap_said(point: Point, base: Point) -> str:
    """A JVM's heap a caller adds, beside its resident set (the Java kit's notes): how far
    the collector committed it, and the live data a full collection left."""
    parts = []
    for key, words in (("jvm_heap_committed_bytes", "heap committed"),
                       ("jvm_heap_live_bytes", "live heap")):  # fmt: skip
        at_n, at_one = point.record.notes.get(key), base.record.notes.get(key)
        if isinstance(at_n, int) and isinstance(at_one, int):
            parts.append(f"{words} {fmt.megabytes((at_n - at_one) / (point.n - 1))} MB")
    return f" (the JVM's {', '.join(parts)} a caller)" if parts else ""


def busy_words(point: Point, cores: int) -> str:
    """ "2 callers keep 1.2 cores busy": the point's callers' CPU time over its span."""
    busy = point.record.cores_busy
    who = "copies" if point.way == "processes" else "callers"
    return f"{point.n} {who} keep {busy:.1f} cores busy" if busy is not None else ""


def kept_idle(point: Point, cores: int) -> bool | None:
    """Whether the callers left a core they could use idle (busy under the cores they could
    fill, min(N, C), by more than IDLE_MARGIN); None without CPU times."""
    busy = point.record.cores_busy
    if busy is None:
        return None
    return busy < min(point.n, cores) - IDLE_MARGIN


def holding_said(best: Point, every: Sequence[Point], cores: int) -> str:
    """A model shared against one per caller of ``best``'s runtime, where both ran at C and
    they are apart; "" otherwise."""
    # A twin keeping its runtime's default set-up holds the model as its row does:
    # it is no second holding (sections/runtime_defaults reads it).
    beside = [p for p in every if p.n == cores and p.way == "threads"
              and p.record.language == best.record.language and not is_runtime_default(p)
              and p.record.runtime == best.record.runtime]  # fmt: skip
    shared = [p for p in beside if p.holds == "shared"]
    own = [p for p in beside if p.holds != "shared"]
    if not (shared and own):
        return ""
    a, b = max(own, key=lambda p: p.calls_per_s), max(shared, key=lambda p: p.calls_per_s)
    ratio = more_calls(a, b)
    if ratio.costs_more(NOISE):
        busy = f", {busy_words(b, cores)}" if busy_words(b, cores) else ""
        return f"a shared session's contention (a model per caller does {ratio}{busy})"
    if ratio.costs_less(NOISE):
        return f"a shared model does {more_calls(b, a)} a model per caller's"
    return f"a shared model keeps up with one per caller ({ratio})"


def deciding(best: Point, every: Sequence[Point], cores: int) -> str:
    """One line on what decides ``best``'s language's answer at ``cores`` callers, each
    word standing on a figure of the run: threads against processes, the two holdings,
    then the cores the callers kept busy (a lock leaves one idle; full cores slow each
    call), with what a caller adds in memory."""
    language = best.record.language
    threads = best_at(every, language, cores, "threads")
    processes = best_at(every, language, cores, "processes")
    said = ""
    if threads is not None and processes is not None:
        ratio = more_calls(processes, threads)
        held = HOLDS_THREADS.get(language, "a lock in the binding")
        busy = f" ({busy_words(threads, cores)})" if busy_words(threads, cores) else ""
        if ratio.costs_more(NOISE) and kept_idle(threads, cores):
            said = f"processes beat threads {ratio}: {held} holds the threads back{busy}"
        elif ratio.costs_more(NOISE):
            said = f"processes beat threads {ratio}{busy}"
        elif ratio.costs_less(NOISE):
            said = f"threads beat processes {more_calls(threads, processes)}: no copy to load"
        else:
            said = f"threads and processes not apart ({ratio})"
    said = said or holding_said(best, every, cores)
    if not said:
        said = by_the_cores(best, every, cores)
    memory = memory_said(best, every)
    return f"{said}; {memory}" if memory else said


def by_the_cores(best: Point, every: Sequence[Point], cores: int) -> str:
    """What the cores the callers kept busy say of ``best``'s scaling against one caller."""
    scale = scaling(best, every)
    if scale is None:
        return "no one-caller point to scale against"
    idle = kept_idle(best, cores)
    busy = busy_words(best, cores)
    if scale.costs_more(NOISE):
        return f"calls run side by side: {scale} one caller's" + (f", {busy}" if busy else "")
    if idle is None:
        return f"{scale} one caller's; no CPU time to tell a lock from full cores"
    if idle:
        held = HOLDS_THREADS.get(best.record.language, "a lock")
        return f"{held}: {busy} of {min(best.n, cores)}, {scale} one caller's calls"
    slower = best.n / scale.value
    return (f"the cores: {busy} and each call takes {slower:.1f}× one caller's "
            f"({scale} one caller's calls)")  # fmt: skip


def table(every: Sequence[Point], cores: int) -> str:
    """Per language, its best point at ``cores`` callers (threads or processes); where that
    does less than its one caller, the answer is one caller, and what decides says why."""
    rows = []
    for language in sorted({p.record.language for p in every}):
        ways = best_ways(every, language, cores)
        if not ways:
            continue
        best = max(ways, key=lambda p: p.calls_per_s)
        scale = scaling(best, every)
        base = one_caller(best, every)
        answer = best
        way = f"`{best.record.id}` in {best.shown_way} ({best.holds})"
        if scale is not None and base is not None and scale.costs_less(NOISE):
            answer, way = base, f"one caller: `{base.record.id}` ({cores} callers do {scale})"
        low, high = answer.interval
        shown = str(scale) if scale is not None else fmt.NOT_SHOWN
        rate = f"{calls(answer.calls_per_s)} [{calls(low)}–{calls(high)}]"
        rows.append([language, way, rate, shown, latency_us(answer.record)[2],
                     deciding(best, every, cores)])  # fmt: skip
    header = ["language", f"best way from {cores} callers", "calls a second [95%]",
              f"{cores} callers × one", "p99 µs", "what decides"]  # fmt: skip
    return fmt.table(header, rows)
