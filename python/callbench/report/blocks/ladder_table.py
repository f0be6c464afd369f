"""The overhead ladder as Markdown: one table per runtime, steps in µs per call."""

from __future__ import annotations

from callbench.records.ladder import TOLERANCE, Ladder, RuntimeLadder
from callbench.report.blocks.format import table, us


def runtime_table(r: RuntimeLadder) -> str:
    full = r.full_ns
    rows = [[s.label, us(r.step_ns(s)), f"{100 * r.step_ns(s) / full:.1f}%"] for s in r.steps]
    verdict = "adds up" if r.adds_up else f"does not add up within {TOLERANCE:.0%}"
    rows += [
        ["**sum of the steps**", us(r.sum_ns), f"{100 * r.sum_ns / full:.1f}%"],
        [f"**the full call**: `{r.call}`", us(full), f"100% ({r.gap:+.1%}: {verdict})"],
    ]
    driver = r.driver_per_call_ns
    if driver is not None:
        rows.append([f"the driver `{r.driver}`, same process", us(driver),
                     f"{100 * driver / full:.1f}%"])  # fmt: skip
    return table(["step", "µs per call", "of the full call"], rows)


def ladder_table(ladder: Ladder) -> str:
    parts = [
        f"{ladder.calls:,} calls per loop, median of {ladder.repeats} interleaved repeats, "
        f"batch {ladder.batch}, {ladder.threads} thread(s), Python {ladder.python}."
    ]
    for r in ladder.runtimes:
        parts += ["", f"**{r.runtime} {r.runtime_version}**", "", runtime_table(r)]
    return "\n".join(parts)
