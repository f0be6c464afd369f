"""A profile's top frames as a Markdown table, each with its share of a call."""

from __future__ import annotations

from collections.abc import Sequence

from callbench.profile.frames import Profile
from callbench.report.blocks.format import table


def render(profile: Profile, count: int, per_call_ns: float | None = None) -> str:
    """The top frames as a Markdown table, each with its share of a call.

    cProfile rows also give the frame's own µs per call under the profiler and
    how often a call enters it; py-spy rows, their samples. ``per_call_ns``,
    the call's unprofiled cost, turns each share into µs of an unprofiled call.
    """
    timed = profile.unit == "s"
    header = ["share"]
    if per_call_ns is not None:
        header.append("≈ µs of a call")
    header += ["µs/call profiled", "calls/call"] if timed else ["samples"]
    header.append("frame")
    rows: list[Sequence[str]] = []
    for frame in profile.top(count):
        share = profile.share(frame)
        row = [f"{100 * share:.1f}%"]
        if per_call_ns is not None:
            row.append(f"{share * per_call_ns / 1e3:.3f}")
        if timed:
            row += [f"{frame.own / profile.calls * 1e6:.3f}", f"{frame.hits / profile.calls:.2f}"]
        else:
            row.append(f"{frame.own:.0f}")
        rows.append([*row, f"`{frame.name}`"])
    return table(header, rows)
