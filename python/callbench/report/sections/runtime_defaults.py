"""What each runtime's default set-up costs many callers, in "Many callers": each twin that
keeps the default (``roles.RUNTIME_DEFAULT``: ExecuTorch's XNNPACK workspace shared by every
method, OpenVINO's CPU pinning on) against the row that sets the callers up its docs' way, at
each N both ran in threads. A ratio of medians of two groups (bootstrap interval), read by
the report's rule; the twin's own words (its record's ``callers_how``) say what it keeps.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.registry import DRIVERS
from callbench.report.blocks.ratios import NOISE
from callbench.report.sections.many_callers import Point, more_calls
from callbench.roles import RUNTIME_DEFAULT

DEFAULT_OF = {d.id: d.default_of for d in DRIVERS if RUNTIME_DEFAULT in d.roles}


def is_runtime_default(point: Point) -> bool:
    """The point is of a twin that keeps its runtime's default set-up for many callers."""
    return point.record.id in DEFAULT_OF


def lines(every: Sequence[Point]) -> list[str]:
    """One line per twin and N: its row's calls over the twin's, and what the default keeps."""
    found = []
    for twin in every:
        row_id = DEFAULT_OF.get(twin.record.id)
        if row_id is None or twin.way != "threads":
            continue
        row = next((p for p in every if p.record.id == row_id and p.n == twin.n
                    and p.way == "threads"), None)  # fmt: skip
        if row is None:
            continue
        ratio = more_calls(row, twin)
        verdict = ("the default costs" if ratio.costs_more(NOISE) else
                   "the default is faster" if ratio.costs_less(NOISE) else
                   "not apart beyond the noise")  # fmt: skip
        kept = str(twin.record.notes.get("callers_how") or "the runtime's default")
        found.append(f"- `{row_id}` does {ratio} the calls of `{twin.record.id}` at {twin.n} "
                     f"callers ({verdict}); the twin: {kept}.")  # fmt: skip
    return found
