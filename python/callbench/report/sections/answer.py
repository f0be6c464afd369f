"""The answer first: each language's cheapest real way to call the model (a runtime and
its binding, not a hand-written forward), how far the floor is below it, and what
batching does to the cost per sample. The README's first screen and the report's top
section are both this."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from callbench.records.record import Record
from callbench.registry import the_floor
from callbench.report.blocks.format import table, times, us, us_interval
from callbench.report.blocks.ratios import ratio

# Runtimes that are a forward written by hand (in C, Cython, NumPy, numba), not a way
# people call a trained model: the floor and its neighbours.
HAND_WRITTEN = frozenset({"handwritten", "cython", "cffi", "ctypes", "numba", "numpy"})
LEVER_BATCHES = (1, 100, 10_000)
TITLE = "The answer: each language's cheapest way to call the model"
LEVER_INTRO = (
    "Batching is the biggest lever: the cost per sample at batches 1, 100 and 10,000 of each "
    "language's row in the table above, timed again in the batch sweep (so its batch-1 figure "
    "is that sweep's, not the table's)."
)
TIE = "≈"
DEFINITION = (
    "The cheapest way to call it is each language's fastest verified row that calls a "
    "runtime through its binding; a forward written by hand (in C, C++, Rust, Go, Cython, "
    "NumPy or numba, called directly or through cffi or ctypes) is no runtime a trained model "
    "comes in, so those rows, the floor among them, are left out here and shown with the "
    'rest in the report\'s "Cost per call".'
)
TIE_WORDS = "A tie (≈) is within 10% or an interval holding 1."


def cheapest_per_language(records: Sequence[Record]) -> list[Record]:
    """Each language's fastest verified row among real runtimes, cheapest first."""
    real = [r for r in records if r.ok and r.runtime not in HAND_WRITTEN]
    best: dict[str, Record] = {}
    for r in real:
        if r.language not in best or r.median_ns < best[r.language].median_ns:
            best[r.language] = r
    return sorted(best.values(), key=lambda r: r.median_ns)


def _against(row: Record, cheapest: Record) -> str:
    """``1.32×``, with ≈ when the row is not costlier beyond the noise threshold."""
    found = ratio(row, cheapest)
    tied = row is cheapest or found is None or not found.costs_more()
    value = row.median_ns / cheapest.median_ns
    return f"{TIE} " * tied + f"{times(value)}×"


def choice_table(records: Sequence[Record]) -> str:
    rows = cheapest_per_language(records)
    if not rows:
        return "No real runtime ran verified in this run."
    first = rows[0]
    return table(
        ["language", "cheapest way to call (runtime)", "µs per call (95% interval)",
         f"× `{first.id}`"],
        [[r.language, f"`{r.id}` ({r.runtime})",
          f"{us(r.median_ns)} ({us_interval(r.interval_ns)})", _against(r, first)]
         for r in rows],
    )  # fmt: skip


def floor_line(records: Sequence[Record]) -> str | None:
    """How far the hand-written floor is below the cheapest real way."""
    floor = next((r for r in records if r.id == the_floor() and r.ok), None)
    rows = cheapest_per_language(records)
    if floor is None or not rows:
        return None
    return (f"The floor, a hand-written loop (`{floor.id}`), takes {us(floor.median_ns)} µs a "
            f"call: the cheapest runtime costs {times(rows[0].median_ns / floor.median_ns)}× "
            "that: the rest is what the runtime does around the same arithmetic.")  # fmt: skip


def batch_lever(points: Mapping[int, Sequence[Record]], first: Sequence[Record] = ()) -> str | None:
    """Per sample at batches 1, 100 and 10,000: each language's row of the first table
    (``first``: the run's rows at batch 1) where the batch sweep ran it, else its cheapest
    row that the sweep ran, saying so."""
    if not all(b in points for b in LEVER_BATCHES):
        return None
    at = {b: {r.id: r for r in points[b] if r.ok} for b in LEVER_BATCHES}
    chosen = {r.language: r.id for r in cheapest_per_language(first)}
    swept = cheapest_per_language([r for r in at[1].values() if r.id in at[LEVER_BATCHES[-1]]])
    rows: list[tuple[float, list[str]]] = []
    for row in swept:
        wanted = chosen.get(row.language)
        same = wanted in at[1] and wanted in at[LEVER_BATCHES[-1]]
        one = at[1][wanted] if same and wanted else row
        cells = [us(at[b][one.id].median_ns / b) if one.id in at[b] else "-"
                 for b in LEVER_BATCHES]  # fmt: skip
        last = at[LEVER_BATCHES[-1]][one.id]
        gain = (one.median_ns) / (last.median_ns / LEVER_BATCHES[-1])
        why = "" if same or not wanted else f" (`{wanted}`, the first table's, is not swept)"
        rows.append((one.median_ns, [row.language, f"`{one.id}`{why}", *cells, f"{times(gain)}×"]))
    rows.sort(key=lambda pair: pair[0])
    return table(["language", "row", *(f"µs per sample, batch {b:,}" for b in LEVER_BATCHES),
                  "batch 1 ÷ batch 10,000"], [cells for _, cells in rows])  # fmt: skip
