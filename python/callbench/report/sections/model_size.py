"""The "Model size" section: where the binding stops mattering as the model widens.

From a run's width sweep (``--widths``; records under sweep-width/<H>/): per
language, its fastest driver's cost over the fastest row at each width, and
the width from which it stays within 10% of the fastest (the crossover); the
load time and peak memory of every driver at every width; and plain words on
where the choice of language stops mattering and whose kernels win widest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from callbench.model.architecture import flops_per_sample
from callbench.records.record import Record
from callbench.report.blocks import format as fmt

TITLE = "Model size"
# A language whose fastest driver costs at most this much over the fastest row is "within".
WITHIN = 1.10

Points = Mapping[int, Sequence[Record]]


@dataclass(frozen=True)
class Best:
    """A language's fastest verified driver at one width."""

    record: Record
    over_fastest: float  # its median over the width's fastest median (1.0 for that row)


def fastest_by_language(records: Sequence[Record]) -> dict[str, Best]:
    """Each language's fastest verified row at one width, and its ratio to the fastest."""
    verified = [r for r in records if r.ok]
    if not verified:
        return {}
    floor = min(r.median_ns for r in verified)
    best: dict[str, Record] = {}
    for r in verified:
        if r.language not in best or r.median_ns < best[r.language].median_ns:
            best[r.language] = r
    return {lang: Best(r, r.median_ns / floor) for lang, r in best.items()}


def crossover(language: str, widths: Sequence[int], best: Mapping[int, dict[str, Best]]) -> str:
    """The first width from which ``language`` stays within 10% of the fastest at every wider
    width measured; or that it never does up to the widest."""
    widest = widths[-1]
    found: int | None = None
    for width in widths:
        entry = best[width].get(language)
        if entry is not None and entry.over_fastest <= WITHIN:
            found = width if found is None else found
        else:
            found = None
    if found is None:
        return f"not within 10% up to {widest:,}"
    return f"from {found:,}"


def crossover_table(points: Points) -> tuple[str, dict[str, str]]:
    """Per language: its fastest row's cost over the fastest at each width, and the crossover."""
    widths = sorted(points)
    best = {w: fastest_by_language(points[w]) for w in widths}
    languages = sorted({lang for per in best.values() for lang in per})
    crossovers = {lang: crossover(lang, widths, best) for lang in languages}
    rows = []
    for lang in languages:
        row = [lang]
        for w in widths:
            entry = best[w].get(lang)
            row.append(
                fmt.NOT_SHOWN if entry is None
                else f"{entry.over_fastest:.2f}× `{entry.record.id}`"
            )  # fmt: skip
        rows.append([*row, crossovers[lang]])
    fastest = ["fastest row"]
    for w in widths:
        top = min((e.record for e in best[w].values()), key=lambda r: r.median_ns, default=None)
        fastest.append(fmt.NOT_SHOWN if top is None else f"{fmt.us(top.median_ns)} µs `{top.id}`")
    header = ["language", *(f"width {w:,}" for w in widths), "within 10% of the fastest"]
    return fmt.table(header, [[*fastest, ""], *rows]), crossovers


def cost_table(points: Points) -> str:
    """Every driver's median µs per call at every width, with the GFLOP/s it reaches."""
    widths = sorted(points)
    drivers = sorted({(r.language, r.id) for records in points.values() for r in records})
    by_key = {(r.id, w): r for w in widths for r in points[w]}
    rows = []
    for language, driver in drivers:
        row = [f"`{driver}`", language]
        for w in widths:
            r = by_key.get((driver, w))
            if r is None:
                row.append(fmt.NOT_SHOWN)
            elif not r.ok:
                row.append(r.status)
            else:
                gflops = flops_per_sample(w) * r.batch / r.median_ns
                row.append(f"{fmt.us(r.median_ns)} ({gflops:.2f})")
        rows.append(row)
    header = ["driver", "language", *(f"width {w:,}" for w in widths)]
    return fmt.table(header, rows)


def resources_table(points: Points) -> str:
    """Load time (s) and peak memory (MiB) of every driver at every width."""
    widths = sorted(points)
    drivers = sorted({r.id for records in points.values() for r in records})
    by_key = {(r.id, w): r for w in widths for r in points[w]}
    rows = []
    for driver in drivers:
        row = [f"`{driver}`"]
        for w in widths:
            r = by_key.get((driver, w))
            if r is None or not r.ok or r.load_ns is None:
                row.append(fmt.NOT_SHOWN if r is None or r.ok else r.status)
                continue
            rss = "?" if r.peak_rss_bytes is None else f"{r.peak_rss_bytes / 2**20:,.0f}"
            row.append(f"{r.load_ns / 1e6:,.1f} ms, {rss} MiB")
        rows.append(row)
    return fmt.table(["driver", *(f"width {w:,}" for w in widths)], rows)


def plain_words(points: Points, crossovers: Mapping[str, str]) -> str:
    """Where the choice of language stops mattering, and whose kernels win at the widest."""
    widest = sorted(points)[-1]
    never = sorted(lang for lang, c in crossovers.items() if c.startswith("not"))
    crossing = sorted(
        ((int(c.split()[1].replace(",", "")), lang) for lang, c in crossovers.items()
         if not c.startswith("not")),
    )  # fmt: skip
    listed = ", ".join(f"{lang} from {width:,}" for width, lang in crossing)
    if never:
        first = (f"Each language's fastest driver comes within 10% of the fastest row and stays: "
                 f"{listed or 'none'}; {', '.join(never)} not up to width {widest:,}, so up to "
                 "there the choice of language still matters.")  # fmt: skip
    else:
        first = (f"Each language's fastest driver comes within 10% of the fastest row and stays: "
                 f"{listed}; from width {crossing[-1][0]:,} on the choice of language stops "
                 "mattering.")  # fmt: skip
    verified = [r for r in points[widest] if r.ok]
    if not verified:
        return first
    top = min(verified, key=lambda r: r.median_ns)
    near = sorted((r for r in verified if r.median_ns <= WITHIN * top.median_ns),
                  key=lambda r: r.median_ns)  # fmt: skip
    gflops = flops_per_sample(widest) * top.batch / top.median_ns
    threads = "one thread" if top.threads == 1 else f"{top.threads} threads"
    rows = (", ".join(f"`{r.id}` ({r.runtime})" for r in near)
            if len(near) <= fmt.LISTED_AT_MOST
            else f"{len(near)} rows (the table below gives each)")  # fmt: skip
    second = (f"At width {widest:,} the fastest row runs {fmt.us(top.median_ns)} µs a call, "
              f"{gflops:.2f} GFLOP/s on {threads} of this CPU, and the rows within 10% of it are "
              f"{rows}: there the runtime's kernels decide, not the binding.")  # fmt: skip
    return f"{first} {second}"


def section(points: Points, chart: str | None) -> str:
    """The section's body: chart, crossover table, plain words, costs, load and memory."""
    widths = sorted(points)
    flops = ", ".join(f"{w:,}: {flops_per_sample(w):,}" for w in widths)
    crossing, crossovers = crossover_table(points)
    parts = [
        "The same drivers over the model family (2 -> H -> H -> 1, `callbench export "
        "--widths`), each verified against its own width's reference before its time counts. "
        f"FLOPs per sample by width: {flops}.",
        "",
    ]
    if chart is not None:
        parts += [f"![µs per call against hidden width]({chart})", ""]
    parts += [
        "Each language's fastest driver, its median over the fastest row's at that width "
        "(1.00×: it is the fastest), and the width from which it stays within 10%:",
        "",
        crossing,
        "",
        plain_words(points, crossovers),
        "",
        "Median µs per call (GFLOP/s in brackets) of every driver at every width:",
        "",
        cost_table(points),
        "",
        "Load time and peak memory (the driver's process, resident) at every width. Memory "
        "includes the inputs and outputs, and a wider width exports fewer samples (as many "
        "as a round can take), so it need not grow with the width:",
        "",
        resources_table(points),
    ]
    return "\n".join(parts)
