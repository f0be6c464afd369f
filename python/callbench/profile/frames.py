"""A profile as rows of frames, each with its share of a call, and the table that prints it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from callbench.report.format import table

OTHER = "(every other frame)"


@dataclass(frozen=True)
class Frame:
    """One frame's own time (or samples) over a profiled run of ``calls`` calls."""

    name: str
    own: float  # seconds (cProfile) or samples (py-spy)
    hits: int  # times called (cProfile) or samples (py-spy)


@dataclass(frozen=True)
class Profile:
    """Every frame seen while ``calls`` calls ran; shares are of the frames' total."""

    tool: str
    unit: str  # "s" or "samples"
    calls: int  # calls profiled (cProfile); 0 where unknown (py-spy samples a spinning loop)
    frames: tuple[Frame, ...]

    @property
    def total(self) -> float:
        return sum(f.own for f in self.frames)

    def share(self, frame: Frame) -> float:
        """The frame's fraction of the total, in [0, 1]."""
        total = self.total
        return frame.own / total if total > 0 else 0.0

    def top(self, count: int) -> list[Frame]:
        """The ``count`` heaviest frames, then one row holding all the others."""
        ranked = sorted(self.frames, key=lambda f: (-f.own, f.name))
        shown, rest = ranked[:count], ranked[count:]
        if rest:
            shown.append(Frame(OTHER, sum(f.own for f in rest), sum(f.hits for f in rest)))
        return shown


def grouped(profile: Profile, key: Iterable[tuple[Frame, str]]) -> Profile:
    """The same profile with its frames summed under a coarser name (e.g. their library)."""
    sums: dict[str, tuple[float, int]] = {}
    for frame, name in key:
        own, hits = sums.get(name, (0.0, 0))
        sums[name] = (own + frame.own, hits + frame.hits)
    frames = tuple(Frame(n, own, hits) for n, (own, hits) in sums.items())
    return Profile(profile.tool, profile.unit, profile.calls, frames)


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
