"""Time one kernel call: warm up, calibrate, then timed repeats of N calls.

Like ``timeit`` / ``torch.utils.benchmark``: the number of calls per repeat
is chosen so a repeat lasts long enough for the clock, every repeat's raw
figure is kept, and statistics are derived later (never stored rounded).
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Measurement:
    """Raw figures of one kernel: ``repeat_ns[i] / calls_per_repeat`` per call.

    ``cpu_ns[i]`` is the process's CPU time over repeat i (every thread's), so a
    repeat that did not have the CPU can be told from one that was slow.
    """

    repeat_ns: list[int]
    cpu_ns: list[int]
    calls_per_repeat: int
    untimed_calls: int
    last: object  # the last timed call's result, for verification


def _run(call: Callable[[], object], number: int, sync: Callable[[], None]) -> tuple[int, object]:
    """Wall time of ``number`` calls, each result stored so none can be skipped."""
    result: object = None
    start = time.perf_counter_ns()
    for _ in range(number):
        result = call()
    sync()  # asynchronous devices: the work must be finished inside the clock
    return time.perf_counter_ns() - start, result


def _no_sync() -> None:
    return None


def measure(
    call: Callable[[], object],
    *,
    repeats: int,
    warmup: int,
    min_repeat_s: float,
    sync: Callable[[], None] | None = None,
) -> Measurement:
    """Time ``call``: ``warmup`` untimed calls, calibration, ``repeats`` timed repeats."""
    if repeats < 1 or warmup < 0 or min_repeat_s < 0:
        raise ValueError("repeats >= 1, warmup >= 0 and min_repeat_s >= 0 are required")
    sync = sync or _no_sync
    target_ns = min_repeat_s * 1e9
    untimed = warmup
    if warmup:
        _run(call, warmup, sync)
    # Calibrate like timeit.autorange: grow the count until a batch is long
    # enough to extrapolate from, then size a repeat to reach the target.
    number = 1
    while True:
        elapsed, _ = _run(call, number, sync)
        untimed += number
        if elapsed >= target_ns / 5 or number >= 1_000_000:
            break
        number *= 10
    calls = max(1, math.ceil(number * target_ns / max(elapsed, 1)))
    repeat_ns: list[int] = []
    cpu_ns: list[int] = []
    last: object = None
    # The collector would add pauses that belong to no kernel (timeit does the same).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            cpu0 = time.process_time_ns()
            elapsed, last = _run(call, calls, sync)
            cpu_ns.append(time.process_time_ns() - cpu0)
            repeat_ns.append(max(elapsed, 1))
    finally:
        if was_enabled:
            gc.enable()
    return Measurement(repeat_ns, cpu_ns, calls, untimed, last)
