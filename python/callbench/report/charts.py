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
from matplotlib.patches import Patch

from callbench.records.record import Record
from callbench.registry import the_floor
from callbench.report.answer import cheapest_per_language
from callbench.report.counts import Trend
from callbench.report.sweeps import per_unit_ns
from callbench.report.tables import ordered

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
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def colour(language: str) -> str:
    return STYLES.get(language, OTHER)[0]


def linestyle(language: str) -> LineStyle:
    return STYLES.get(language, OTHER)[1]


def _legend(languages: Sequence[str]) -> list[Patch]:
    return [Patch(color=colour(name), label=name) for name in STYLES if name in languages]


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


def width_drivers(points: Mapping[int, Sequence[Record]]) -> set[str]:
    """Each language's cheapest real runtime at the smallest value among the drivers that
    ran at every value, and the floor."""
    everywhere = set.intersection(*({r.id for r in rs if r.ok} for rs in points.values()))
    first = [r for r in points[min(points)] if r.id in everywhere]
    return {r.id for r in cheapest_per_language(first)} | {the_floor()}


def sweep(
    points: Mapping[int, Sequence[Record]], kind: str, run_id: str, path: Path
) -> Path | None:
    """Cost per sample against batch size, or per call against threads or model width, one
    line a driver (for the width, each language's cheapest driver only: the lines cross)."""
    series: dict[str, list[tuple[int, float]]] = {}
    languages: dict[str, str] = {}
    kept = width_drivers(points) if kind == "width" and points else None
    for value, records in sorted(points.items()):
        for r in records:
            if r.ok and (kept is None or r.id in kept):
                series.setdefault(r.id, []).append((value, per_unit_ns(r, kind) / 1e3))
                languages[r.id] = r.language
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(9, 5.5))
    # Colour and line style tell the language, the marker the driver within it.
    by_language = itertools.groupby(sorted(series, key=lambda d: (languages[d], d)),
                                    key=lambda d: languages[d])  # fmt: skip
    for language, drivers in by_language:
        for marker, driver in zip(itertools.cycle(MARKERS), drivers, strict=False):
            xs, ys = zip(*series[driver], strict=True)
            ax.plot(xs, ys, marker=marker, markersize=4, label=driver, color=colour(language),
                    ls=linestyle(language))  # fmt: skip
    ax.set_yscale("log")
    if kind == "batch":
        ax.set_xscale("log")
        ax.set_xlabel("samples per call (batch)")
        ax.set_ylabel("µs per sample, log scale")
        ax.set_title(f"Where batching stops paying — run {run_id}")
    elif kind == "width":
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted(points), [f"{v:,}" for v in sorted(points)])
        ax.set_xlabel("hidden width H of the 2 -> H -> H -> 1 model (log scale)")
        ax.set_ylabel("µs per call, log scale")
        ax.set_title(f"Where the binding stops mattering — run {run_id}")
    else:
        ax.set_xticks(sorted(points), [str(v) for v in sorted(points)])  # whole threads only
        ax.set_xlabel("intra-op threads")
        ax.set_ylabel("µs per call, log scale")
        ax.set_title(f"Thread sweep — run {run_id}")
    ax.grid(True, which="both", alpha=0.3)
    # Beside the plot, never over a line; a driver's id starts with its language, whose
    # colour and line style it has.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), title="driver")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


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
    # Rows doing similar work crowd together: adjustText moves the labels apart,
    # each joined to its point by a thin line.
    # A wider box around each label than the default keeps neighbours from touching.
    adjust_text(labels, ax=ax, expand=(1.3, 1.9), force_text=(0.3, 0.6), iter_lim=2000,
                arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.4})  # fmt: skip
    trend_line = ax.legend(loc="lower right", fontsize=8)
    ax.add_artist(trend_line)
    shown = [languages.get(d, "") for d in found.points]
    ax.legend(handles=_legend(shown), loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
