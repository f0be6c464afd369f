"""A driver's loop under cProfile: the Python frames of a call and the C functions they call.

cProfile times every Python function and every builtin or C method called
from Python, and nothing below them: a torch op is one row, whatever it does
inside. Its hooks cost more per Python call than per native one, so shares
lean towards Python frames; the table gives the unprofiled cost beside them.
"""

from __future__ import annotations

import contextlib
import cProfile
import pstats
import time
from pathlib import Path

from callbench.paths import REPO_ROOT
from callbench.profile.frames import Frame, Profile
from callbench.profile.target import Loaded

Key = tuple[str, int, str]


def frame_name(key: Key) -> str:
    """``package/module.py:line(function)``, or the builtin's own name."""
    path, line, function = key
    if path == "~":
        return function  # "<built-in method torch.relu>", "<method 'item' of ...>"
    text = path.replace("\\", "/")
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in text:
            text = text.split(marker, 1)[1]
            break
    else:
        with contextlib.suppress(ValueError):
            text = str(Path(path).resolve().relative_to(REPO_ROOT / "python"))
    return f"{text}:{line}({function})"


def unprofiled_ns(driver: Loaded) -> float:
    """One plain round of the driver's loop: ns per call without a profiler."""
    calls = driver.options.calls
    t0 = time.perf_counter_ns()
    driver.model.loop(0, calls)
    return (time.perf_counter_ns() - t0) / calls


def profile_loop(driver: Loaded) -> Profile:
    """Calls 0 .. calls-1 under cProfile; each function's own time and call count."""
    profiler = cProfile.Profile()
    loop, calls = driver.model.loop, driver.options.calls
    profiler.enable()
    loop(0, calls)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw: dict[Key, tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]
    frames = []
    for key, (_, ncalls, own, _, _) in raw.items():
        if key[2] == "<method 'disable' of '_lsprof.Profiler' objects>":
            continue
        frames.append(Frame(frame_name(key), own, ncalls))
    return Profile("cProfile", "s", calls, tuple(frames))
