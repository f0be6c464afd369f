"""The report's "How best to use the cores": C callers, C intra-op threads, or batching.

Per language, the row with the most calls a second at N = C (the machine's cores) in the
callers sweep, and the same row (its runtime's row sharing a model, for a callers-only
one) run the two other ways (harness/load/cores_plan.py): one caller of C intra-op threads at
batch 1 (sweep kind "intra-op"), one caller of one thread batching at C samples a call and
at its runtime's best batch (kind "batching", or the batch sweep's own point). All in
samples a second, each with its median's 95% interval inverted and its p99 per call where
its latency round ran. A way wins where its ratio to the next way's samples a second (of
medians of two groups, bootstrap interval) excludes 1 and passes the noise threshold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from callbench.harness.load.cores_plan import best_batch
from callbench.records import stats
from callbench.records.record import Record
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import NOISE, Ratio
from callbench.report.sections.many_callers import Point, best_at, points

TITLE = "How best to use the cores"
Sweeps = Mapping[str, Mapping[int, Sequence[Record]]]


@dataclass(frozen=True)
class Way:
    name: str  # how the cores are spent, as the table says it
    asks: str  # what the way asks of the user's program
    record: Record

    @property
    def per_sample(self) -> list[float]:
        return [ns / self.record.batch for ns in self.record.samples]

    @property
    def samples_per_s(self) -> float:
        return 1e9 / stats.median(self.per_sample)

    @property
    def interval(self) -> stats.Interval:
        low, high = stats.median_interval(self.per_sample)
        return 1e9 / high, 1e9 / low

    def against(self, other: Way) -> Ratio:
        """``other``'s ns per sample over this way's: above 1 when this way does more."""
        value, interval = stats.ratio_of_medians(self.per_sample, other.per_sample)
        return Ratio(value, interval, paired=False)


def _of(sweeps: Sweeps, kind: str, value: int, row: str) -> Record | None:
    return next((r for r in sweeps.get(kind, {}).get(value, []) if r.ok and r.id == row), None)


def _batched(sweeps: Sweeps, batch: int, row: str) -> Record | None:
    """The row at ``batch`` at one thread: a batching point, else the batch sweep's."""
    return _of(sweeps, "batching", batch, row) or _of(sweeps, "batch", batch, row)


def ways(sweeps: Sweeps, language: str, cores: int) -> list[Way]:
    """``language``'s ways of using ``cores`` cores, one caller first (for scale)."""
    every = points(sweeps.get("callers"), sweeps.get("processes"))
    found: list[Way] = []
    for way in ("threads", "processes"):
        p = best_at(every, language, cores, way)
        if p is not None and cores > 1:
            asks = (f"{cores} copies of the program, a model each" if way == "processes" else
                    f"a pool of {cores} threads calling at once, {_holds(p)}")  # fmt: skip
            found.append(Way(f"{cores} callers in {p.shown_way}", asks, p.record))
    intra = next((r for r in sweeps.get("intra-op", {}).get(cores, [])
                  if r.ok and r.language == language), None)  # fmt: skip
    row = intra.id if intra is not None else None
    if row is None:  # one core: the batching points name the row
        row = next((r.id for rs in sweeps.get("batching", {}).values() for r in rs
                    if r.ok and r.language == language), None)  # fmt: skip
    if row is None:
        return []
    one = _of(sweeps, "callers", 1, row)
    if one is not None:
        found.insert(0, Way("1 caller, 1 thread, batch 1", "nothing", one))
    if intra is not None:
        found.append(Way(f"1 caller, {cores} intra-op threads", "nothing: one option when "
                         "the model is loaded", intra))  # fmt: skip
    known = intra or one
    runtime = known.runtime if known is not None else ""
    batches = sorted({cores, best_batch(_batch_sweep(sweeps), runtime) or cores} - {1})
    for batch in batches:
        record = _batched(sweeps, batch, row)
        if record is not None:
            found.append(Way(f"1 caller batching {batch:,}", f"a queue that gathers {batch:,} "
                             "requests into one call (each waits for the batch to fill)",
                             record))  # fmt: skip
    return found


def _holds(p: Point) -> str:
    return "the model shared" if p.holds == "shared" else "a model per caller"


def _batch_sweep(sweeps: Sweeps) -> list[Record]:
    return [r for rs in sweeps.get("batch", {}).values() for r in rs]


def p99_us(record: Record) -> str:
    found = record.latency_samples()
    if found is None or not len(found):
        return fmt.NOT_SHOWN
    return fmt.us(float(np.percentile(found, 99)))


def verdict(found: Sequence[Way]) -> str:
    """The winner where it is apart from the next way beyond the noise; else it says so."""
    spending = [w for w in found if w.name != "1 caller, 1 thread, batch 1"]
    if len(spending) < 2:
        return "only one way ran"
    ranked = sorted(spending, key=lambda w: w.samples_per_s, reverse=True)
    best, second = ranked[0], ranked[1]
    ratio = best.against(second)
    if ratio.costs_more(NOISE):
        return (f"**{best.name}** wins: {samples(best.samples_per_s)} samples a second, "
                f"{ratio} the next way's ({second.name}); it asks {best.asks}")  # fmt: skip
    simpler = min((best, second), key=asking)
    return (f"{best.name} and {second.name} are not apart beyond the noise ({ratio}): "
            f"{simpler.name} asks less of the program ({simpler.asks})")  # fmt: skip


def asking(way: Way) -> int:
    """How much a way asks of the program, least first: an option, a pool of threads, the
    program's copies, a queue that gathers a batch."""
    order = ("intra-op", "in threads", "in worker threads", "in flight", "in processes")
    return next((n for n, words in enumerate(order) if words in way.name), len(order))


def samples(value: float) -> str:
    """Samples a second: whole ones, three digits below 100 (a ResNet-50 does 25 here)."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def section(sweeps: Sweeps, cores: int) -> str | None:
    """The section's text: what it compares, the answer per language, the table."""
    languages = sorted({r.language for kind in ("intra-op", "batching")
                        for rs in sweeps.get(kind, {}).values() for r in rs if r.ok})  # fmt: skip
    if not languages:
        return None
    rows, answers = [], []
    for language in languages:
        found = ways(sweeps, language, cores)
        if not found:
            continue
        base = found[0] if found[0].name.startswith("1 caller, 1 thread") else None
        for w in found:
            low, high = w.interval
            scale = str(w.against(base)) if base is not None and w is not base else fmt.NOT_SHOWN
            rows.append([language, w.name, f"`{w.record.id}`",
                         f"{samples(w.samples_per_s)} [{samples(low)}–{samples(high)}]", scale,
                         p99_us(w.record), w.asks])  # fmt: skip
        answers.append(f"- **{language}**: {verdict(found)}.")
    intro = (
        f"The ceiling each way reaches when latency does not matter: closed loops, no bound "
        f"(so batching thousands wins; where a run served at a rate, *How best to use the "
        f"cores, within the bound* above answers for a service). "
        f"Three ways to spend this machine's {cores} cores on one model, per language on its "
        f"row with the most calls a second at {cores} callers (at one caller, a callers-only "
        f"row is its runtime's row sharing the model): {cores} callers of one intra-op "
        f"thread each (threads, and processes for Python and Node.js: the callers sweep's "
        f"point), one caller of {cores} intra-op threads at batch 1, and one caller of one "
        f"thread batching, at {cores} samples a call and at its runtime's best batch in the "
        f"batch sweep. All in **samples a second** (a call of batch B is B samples) with the "
        f"median's 95% interval; × one caller is against the row's one caller at batch 1 "
        f"(a ratio of medians of two groups, bootstrap interval). p99 is of one call as its "
        f"caller saw it, where the point's latency round ran: a batched sample waits for "
        f"the whole call, and in a service also for its batch to fill (not counted here). "
        f"A way wins where its ratio to the next way's excludes 1 and passes "
        f"{NOISE:.0%}; otherwise the way that asks less of the program is the answer (an "
        f"option asks less than a pool of threads, a pool less than copies of the program, "
        f"copies less than a queue that gathers a batch)."
    )
    header = ["language", "way", "row", "samples a second [95%]", "× one caller", "p99 µs",
              "it asks of the program"]  # fmt: skip
    return "\n".join([intro, "", *answers, "", fmt.table(header, rows)])
