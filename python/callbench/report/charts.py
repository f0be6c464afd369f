"""Charts for the report (PNG, matplotlib's Agg backend: no display needed).

Each language has one colour and one line style, the same in every chart.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from adjustText import adjust_text
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.text import Text

from callbench.records.record import Record
from callbench.registry import the_floor
from callbench.report.blocks.tables import ordered
from callbench.report.sections.answer import HAND_WRITTEN
from callbench.report.sections.counts import Trend
from callbench.report.sections.cpu_or_gpu import is_gpu_floor, on_gpu
from callbench.report.sections.many_callers import Point
from callbench.report.sections.sweeps import per_unit_ns

# (colour, line style) per language; colours after GitHub's linguist.
LineStyle = str | tuple[float, tuple[float, ...]]
STYLES: dict[str, tuple[str, LineStyle]] = {
    "Python": ("#3572A5", ":"),
    "C++": ("#f34b7d", "-"),
    "Java": ("#b07219", "--"),
    "Rust": ("#6b4f3a", "-."),
    "Go": ("#00ADD8", (0, (5, 1))),
    "Node.js": ("#2f9e44", (0, (3, 1, 1, 1, 1, 1))),
}
OTHER: tuple[str, LineStyle] = ("grey", "-")


def colour(language: str) -> str:
    return STYLES.get(language, OTHER)[0]


def linestyle(language: str) -> LineStyle:
    return STYLES.get(language, OTHER)[1]


def _legend(languages: Sequence[str]) -> list[Patch]:
    """One patch a language shown: ours in their order, any other after them."""
    named = [name for name in STYLES if name in languages]
    named += sorted({name for name in languages if name not in STYLES})
    return [Patch(color=colour(name), label=name or "unknown") for name in named]


def per_call(records: Sequence[Record], run_id: str, path: Path) -> Path:
    """Median µs per call of every verified driver, its 95% interval as error bars, log scale."""
    shown = [r for r in ordered(records) if r.ok][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.35 * max(len(shown), 3) + 1.2))
    if shown:
        medians = [r.median_ns / 1e3 for r in shown]
        lows = [m - r.interval_ns[0] / 1e3 for m, r in zip(medians, shown, strict=True)]
        highs = [r.interval_ns[1] / 1e3 - m for m, r in zip(medians, shown, strict=True)]
        y = range(len(shown))
        ax.barh(y, medians, xerr=[lows, highs], color=[colour(r.language) for r in shown],
                capsize=2)  # fmt: skip
        ax.set_yticks(list(y), [r.id for r in shown], fontsize=8)
        ax.set_xscale("log")
    ax.set_xlabel("µs per call (median of rounds; bars: 95% interval), log scale")
    ax.set_title(f"Cost per call, batch 1 — run {run_id}")
    ax.legend(handles=_legend([r.language for r in shown]), loc="upper left",
              bbox_to_anchor=(1.01, 1), fontsize=8)  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


GPU_STYLE: tuple[str, LineStyle] = ("black", (0, (1, 1)))
FLOOR_STYLE: tuple[str, LineStyle] = ("grey", "-")


def _line_key(record: Record) -> str:
    """The line a record belongs to: its language, or its language on the GPU."""
    return f"{record.language} on GPU" if on_gpu(record) else record.language


FLOOR_LINE = "the floor"


def best_rows(points: Mapping[int, Sequence[Record]], kind: str) -> dict[str, str]:
    """Each line's driver: per language (and per language on the GPU), the verified row of a
    real runtime (as the answer counts them: no hand-written forward) that ran at the most
    values of the sweep, the cheapest of those by its geometric mean; and the floor."""
    costs: dict[str, dict[int, float]] = {}
    keys: dict[str, str] = {}
    for value, records in points.items():
        for r in records:
            if not r.ok or is_gpu_floor(r):
                continue
            if r.id == the_floor():
                keys[r.id] = FLOOR_LINE
            elif r.runtime in HAND_WRITTEN:
                continue
            else:
                keys[r.id] = _line_key(r)
            costs.setdefault(r.id, {})[value] = per_unit_ns(r, kind)

    def rank(driver: str) -> tuple[int, float]:
        found = list(costs[driver].values())
        return -len(found), float(np.mean(np.log(found)))

    return {key: min((d for d in costs if keys[d] == key), key=rank) for key in set(keys.values())}


def many_callers(
    lines: Mapping[tuple[str, str], Sequence[Point]], run_id: str, path: Path
) -> Path | None:
    """Calls a second against callers: a line a language (its best row at N = the cores),
    solid in threads, dashed in processes, each point's 95% interval as error bars."""
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    counts: set[int] = set()
    for (language, way), drawn in lines.items():
        xs = [p.n for p in drawn]
        ys = [p.calls_per_s / 1e3 for p in drawn]
        low = [y - p.interval[0] / 1e3 for p, y in zip(drawn, ys, strict=True)]
        high = [p.interval[1] / 1e3 - y for p, y in zip(drawn, ys, strict=True)]
        counts.update(xs)
        ax.errorbar(xs, ys, yerr=[low, high], marker="o", markersize=5, capsize=3,
                    color=colour(language), ls="-" if way == "threads" else "--", lw=1.6,
                    label=f"{language}, {way}: {drawn[-1].record.id}")  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(counts), [str(n) for n in sorted(counts)])
    ax.set_xlabel("callers at once (log scale)")
    ax.set_ylabel("thousand calls a second, all callers")
    ax.set_title(f"Many callers — run {run_id}")
    return _lines_saved(fig, ax, path, "each language's best row at N = the cores")


def sweep(
    points: Mapping[int, Sequence[Record]], kind: str, run_id: str, path: Path
) -> Path | None:
    """Cost per sample against batch size, or per call against threads or model width: one
    line a language, its best row (the rest are in the sweep's table), and the floor in
    grey; a language's GPU rows are a line of their own, black and dotted."""
    best = best_rows(points, kind)
    if not best:
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    for key in sorted(best, key=lambda k: (k == FLOOR_LINE, k.endswith("on GPU"), k)):
        driver = best[key]
        xy = sorted((value, per_unit_ns(r, kind) / 1e3) for value, records in points.items()
                    for r in records if r.id == driver and r.ok)  # fmt: skip
        xs, ys = zip(*xy, strict=True)
        gpu = key.endswith("on GPU")
        tint, style = (
            GPU_STYLE
            if gpu
            else FLOOR_STYLE
            if key == FLOOR_LINE
            else (colour(key), linestyle(key))
        )
        ax.plot(xs, ys, marker="x" if gpu else "o", markersize=5, label=f"{key}: {driver}",
                color=tint, ls=style, lw=1.6)  # fmt: skip
    ax.set_yscale("log")
    values = sorted(points)
    if kind == "batch":
        ax.set_xscale("log")
        ax.set_xlabel("samples per call (batch), log scale")
        ax.set_ylabel("µs per sample, log scale")
        ax.set_title(f"Where batching stops paying — run {run_id}")
    elif kind == "width":
        ax.set_xscale("log", base=2)
        ax.set_xticks(values, [f"{v:,}" for v in values])
        ax.set_xlabel("hidden width H of the 2 -> H -> H -> 1 model (log scale)")
        ax.set_ylabel("µs per call, log scale")
        ax.set_title(f"Where the binding stops mattering — run {run_id}")
    else:
        ax.set_xticks(values, [str(v) for v in values])  # whole threads only
        ax.set_xlabel("intra-op threads")
        ax.set_ylabel("µs per call, log scale")
        ax.set_title(f"Thread sweep — run {run_id}")
    return _lines_saved(fig, ax, path, "each language's cheapest runtime")


def _lines_saved(fig: Figure, ax: Axes, path: Path, legend_title: str) -> Path:
    """A chart of lines finished alike: its grid, the legend beside the plot (never over a
    line), written to ``path``."""
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title=legend_title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def overlapping_labels(fig: Figure, labels: Sequence[Text]) -> list[tuple[str, str]]:
    """The pairs of labels whose drawn boxes intersect."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in labels]
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
            if box_a.overlaps(box_b)]  # fmt: skip


def set_apart(fig: Figure, ax: Axes, labels: Sequence[Text], rounds: int = 20) -> None:
    """Move the upper label of each touching pair up until no two labels touch (or after
    ``rounds`` passes), in screen units, so a log scale moves it as far as a linear one."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    for _ in range(rounds):
        touching = False
        for a, b in itertools.combinations(labels, 2):
            box_a, box_b = a.get_window_extent(renderer), b.get_window_extent(renderer)
            if not box_a.overlaps(box_b):
                continue
            touching = True
            upper, lower = (a, box_b) if box_a.y0 >= box_b.y0 else (b, box_a)
            x, y = ax.transData.transform(upper.get_position())
            lift = lower.y1 - upper.get_window_extent(renderer).y0 + 2
            new_x, new_y = ax.transData.inverted().transform((x, y + lift))
            upper.set_position((float(new_x), float(new_y)))
        if not touching:
            return


def work_and_time(found: Trend, run_id: str, languages: Mapping[str, str], path: Path) -> Path:
    """µs per call against instructions per call, log–log, labelled, with the trend line."""
    fig, ax = plt.subplots(figsize=(12, 9))
    labels = []
    for driver, (work, us) in found.points.items():
        language = languages.get(driver, "")
        ax.scatter([work], [us], s=18, color=colour(language), zorder=3)
        labels.append(ax.text(work, us, driver, fontsize=6, color=colour(language)))
    xs = np.geomspace(min(p[0] for p in found.points.values()),
                      max(p[0] for p in found.points.values()), 50)  # fmt: skip
    ax.plot(xs, [found.at(x) for x in xs], color="black", lw=0.8, ls="--",
            label=f"trend: µs ∝ instructions^{found.slope:.2f}")  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("instructions per call under callgrind (AVX2 paths), log scale")
    ax.set_ylabel("µs per call, median of the timed rounds, log scale")
    ax.set_title(f"Wall time against work — run {run_id}")
    ax.grid(True, which="both", alpha=0.3)
    # Rows doing similar work crowd together: adjustText moves the labels apart, each
    # joined to its point by a thin line; a wider box around each label than the default
    # keeps neighbours from touching. A pair it leaves touching is then set apart by hand.
    adjust_text(labels, ax=ax, expand=(1.5, 2.2), force_text=(0.4, 0.8), iter_lim=1500,
                arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.4})  # fmt: skip
    set_apart(fig, ax, labels)
    trend_line = ax.legend(loc="lower right", fontsize=8)
    ax.add_artist(trend_line)
    shown = [languages.get(d, "") for d in found.points]
    ax.legend(handles=_legend(shown), loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def serving(rows: Sequence[Record], run_id: str, path: Path) -> Path | None:
    """p99 against the offered rate, a line a row and callers, the bound a grey line: where
    the knee shows. A record with a curve draws the curve's points, its p99 of total and,
    thin and dotted, of wait (perf_analyzer's --request-rate-range); an older record its
    search's points in rate order."""
    drawn = [r for r in rows if r.serving and r.serving["points"]]
    if not drawn:
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    for r in drawn:
        assert r.serving is not None
        curve = "curve" in r.serving
        shown = [p for p in r.serving["points"] if not curve or "repeat" not in p]
        xy = sorted((p["rate"] / 1e3, p["p99_ns"] / 1e3) for p in shown)
        xs, ys = zip(*xy, strict=True)
        ax.plot(xs, ys, marker="o", markersize=4, color=colour(r.language),
                ls="-" if r.callers == 1 else "--", lw=1.4,
                label=f"{r.id}, {r.callers} caller{'s' if r.callers > 1 else ''}")  # fmt: skip
        waits = sorted((p["rate"] / 1e3, p["times"]["wait"]["p99_ns"] / 1e3)
                       for p in shown if curve and p.get("times"))  # fmt: skip
        if waits:
            wx, wy = zip(*waits, strict=True)
            ax.plot(wx, wy, color=colour(r.language), ls=":", lw=0.9)
    for bound in sorted({r.serving["bound_ns"] for r in drawn if r.serving}):
        ax.axhline(bound / 1e3, color="grey", lw=1.2)
    ax.set_yscale("log")
    ax.set_xlabel("offered rate, thousand requests a second")
    ax.set_ylabel("p99 µs from arrival (log scale)")
    ax.set_title(f"Serving at a rate — run {run_id}")
    return _lines_saved(fig, ax, path, "row, callers (the bound grey; a row's wait p99 dotted)")
