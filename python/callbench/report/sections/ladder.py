"""The report's "Where a call's time goes": the overhead ladder of a run, chart and tables.

Reads ``ladder.json`` (written by ``callbench profile ladder --run-dir``;
format in ``callbench.profile.ladder_record``) and draws one stacked bar per
runtime: each step's µs per call, and a tick at the full call measured.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from callbench.records import ladder as ladder_record
from callbench.records.ladder import Ladder
from callbench.report.blocks.ladder_table import ladder_table

# One colour and legend entry per step name, the same in every bar (matplotlib's tab10).
STEPS = {
    "loop": ("#1f77b4", "empty loop"), "sample": ("#ff7f0e", "take a sample"),
    "input": ("#2ca02c", "build the input"), "call": ("#d62728", "call a do-nothing model"),
    "model": ("#9467bd", "the MLP's operators: dispatch, and 209 FLOPs"),
    "store": ("#8c564b", "store the result"),
}  # fmt: skip
CHART_DIR = "charts"


def ladder_chart(ladder: Ladder, run_name: str, path: Path) -> Path:
    """Stacked horizontal bars, one per runtime, steps left to right; ticks at the full call."""
    runtimes = ladder.runtimes
    fig, ax = plt.subplots(figsize=(9, 1.1 * max(len(runtimes), 2) + 2.0))
    labelled: set[str] = set()
    for row, r in enumerate(runtimes):
        left = 0.0
        for step in r.steps:
            width = max(r.step_ns(step), 0.0) / 1e3
            colour, legend = STEPS.get(step.name, ("grey", step.name))
            ax.barh(row, width, left=left, color=colour, edgecolor="white", linewidth=0.5,
                    label=legend if step.name not in labelled else None)  # fmt: skip
            labelled.add(step.name)
            left += width
        ax.plot([r.full_ns / 1e3] * 2, [row - 0.45, row + 0.45], color="black", lw=1.5,
                label="full call, measured" if row == 0 else None)  # fmt: skip
    ax.set_yticks(range(len(runtimes)), [f"{r.runtime} {r.runtime_version}" for r in runtimes])
    ax.invert_yaxis()
    ax.set_xlabel("µs per call (median of interleaved repeats)")
    ax.set_title(f"Where a call's time goes, batch {ladder.batch}, {ladder.threads} thread(s) "
                 f"— run {run_name}")  # fmt: skip
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def ladder_section(run_dir: Path, chart_dir: Path) -> str | None:
    """The section's Markdown, its chart written into ``chart_dir``; None without a ladder.

    Raises RunError (naming the file) when ladder.json is there but unreadable.
    """
    path = run_dir / ladder_record.FILE
    if not path.is_file():
        return None
    ladder = ladder_record.read(path)
    chart_dir.mkdir(parents=True, exist_ok=True)
    chart = ladder_chart(ladder, run_dir.name, chart_dir / f"{run_dir.name}-ladder.png")
    return "\n".join([
        "## Where a call's time goes",
        "",
        "Each step of a call timed on its own, in one process: a loop doing only that step, "
        "less the empty loop (the MLP's operators: the MLP less a model that does nothing). "
        "The steps should add up to the full call, measured as one loop, within "
        f"{ladder_record.TOLERANCE:.0%}; the registered driver on the same path is timed "
        "beside them. `callbench profile ladder --run-dir RUN` makes it; "
        "`callbench profile driver DRIVER` shows a driver's frames.",
        "",
        f"![where a call's time goes]({CHART_DIR}/{chart.name})",
        "",
        ladder_table(ladder),
    ])  # fmt: skip
