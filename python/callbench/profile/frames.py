"""A profile as rows of frames, each with its share of a call (report/blocks/frames_table.py
prints it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
