"""Charts for the report (PNG, matplotlib's Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Patch

from callbench.report.load import Run
from callbench.report.tables import median_ns, ordered

COLOURS = {"Python": "#3572A5", "C++": "#f34b7d", "Java": "#b07219"}
LINESTYLES = {"Python": ":", "C++": "-", "Java": "--"}


def per_call(run: Run, path: Path) -> Path:
    """Median µs per call of every ok driver, min–max as error bars, log scale."""
    records = [r for r in ordered(run.drivers) if median_ns(r) is not None][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.35 * max(len(records), 3) + 1.2))
    if records:
        meds = [(median_ns(r) or 0) / 1e3 for r in records]
        lows = [m - min(r["per_call_ns"]) / 1e3 for m, r in zip(meds, records, strict=True)]
        highs = [max(r["per_call_ns"]) / 1e3 - m for m, r in zip(meds, records, strict=True)]
        colours = [COLOURS.get(str(r.get("language")), "grey") for r in records]
        y = range(len(records))
        ax.barh(y, meds, xerr=[lows, highs], color=colours, capsize=2)
        ax.set_yticks(list(y), [str(r["driver"]) for r in records], fontsize=8)
        ax.set_xscale("log")
    ax.set_xlabel("µs per call (median of repeats; bars: min–max), log scale")
    ax.set_title(f"Cost per call, batch 1 — {run.host}")
    handles = [Patch(color=c, label=name) for name, c in COLOURS.items()]
    ax.legend(handles=handles, loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def sweep(run: Run, kind: str, path: Path) -> Path | None:
    """Cost per sample against batch size, or per call against threads, one line a driver."""
    points = run.sweeps.get(kind)
    if not points:
        return None
    series: dict[str, list[tuple[int, float]]] = {}
    for value, recs in sorted(points.items()):
        for r in recs:
            med = median_ns(r)
            if med is not None:
                per = r["batch"] if kind == "batch" else 1
                series.setdefault(str(r["driver"]), []).append((value, med / per / 1e3))
    fig, ax = plt.subplots(figsize=(9, 5.5))
    languages = {str(r["driver"]): str(r.get("language")) for recs in points.values() for r in recs}
    palette = [plt.get_cmap("tab20")(k) for k in range(20)]
    for n, (driver, pts) in enumerate(sorted(series.items())):
        xs, ys = zip(*pts, strict=True)
        # Colour tells drivers apart, the line style tells the language.
        style = LINESTYLES.get(languages.get(driver, ""), "-")
        ax.plot(xs, ys, marker="o", markersize=3, label=driver, color=palette[n % 20], ls=style)
    ax.set_yscale("log")
    if kind == "batch":
        ax.set_xscale("log")
        ax.set_xlabel("samples per call (batch)")
        ax.set_ylabel("µs per sample, log scale")
        ax.set_title(f"Where batching stops paying — {run.host}")
    else:
        ax.set_xlabel("intra-op threads")
        ax.set_ylabel("µs per call, log scale")
        ax.set_title(f"Thread sweep — {run.host}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
