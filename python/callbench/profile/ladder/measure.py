"""The overhead ladder: a call taken apart into steps, each timed per call in one process.

Each runtime's path (``torch_path``, ``onnxruntime_path``) gives loops
that each do one step of a call on its own (``for i in range(n): <step>``),
the loop that does the whole call, and the steps as differences of loops.
Every loop runs ``calls`` iterations per repeat; the repeats are interleaved
in a shuffled order, so drift hits every loop alike. The registered driver
on the same path is timed among them, for reference.
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import numpy as np

from callbench.driver_options import Options
from callbench.languages.python import inputs_for
from callbench.profile.target import loaded, python_drivers
from callbench.records.ladder import Ladder, Loop, RuntimeLadder, Step

Body = Callable[[int], None]  # runs iterations 0 .. n-1 of one loop
WARMUP = 1000


@dataclass(frozen=True)
class TimedLoop:
    name: str
    code: str
    body: Body


@dataclass(frozen=True)
class LadderPath:
    """One runtime's loops and steps, as a path module builds them."""

    runtime: str
    runtime_version: str
    call: str
    loops: tuple[TimedLoop, ...]
    steps: tuple[Step, ...]
    full: str
    driver: str | None  # the registered driver on this path
    context: Callable[[], AbstractContextManager[object]] = field(default=nullcontext)


PathBuilder = Callable[[Options, np.ndarray, np.ndarray], LadderPath]


def time_loops(
    loops: Sequence[tuple[str, Body, Callable[[], AbstractContextManager[object]]]],
    calls: int,
    repeats: int,
    seed: int,
) -> dict[str, list[int]]:
    """ns of ``calls`` iterations of each loop, per repeat; loops shuffled within a repeat."""
    for _, body, context in loops:
        with context():
            body(min(calls, WARMUP))
    times: dict[str, list[int]] = {name: [] for name, _, _ in loops}
    order = list(loops)
    shuffle = random.Random(seed).shuffle
    clock = time.perf_counter_ns
    for _ in range(repeats):
        shuffle(order)
        for name, body, context in order:
            with context():
                t0 = clock()
                body(calls)
                times[name].append(clock() - t0)
    return times


def measure_path(build: PathBuilder, options: Options, repeats: int, seed: int) -> RuntimeLadder:
    """Build one path, time its loops and its registered driver, interleaved."""
    inputs = inputs_for(options)
    outputs = np.zeros((options.calls * options.batch, 1), dtype=np.float32)
    path = build(options, inputs, outputs)
    entries = [(lp.name, lp.body, path.context) for lp in path.loops]
    driver = path.driver if path.driver in python_drivers() else None
    if driver is None:
        times = time_loops(entries, options.calls, repeats, seed)
        driver_ns: list[int] = []
    else:
        with loaded(driver, options) as d:
            loop = d.model.loop

            def driver_body(n: int) -> None:
                loop(0, n)

            times = time_loops([*entries, ("driver", driver_body, nullcontext)],
                               options.calls, repeats, seed)  # fmt: skip
        driver_ns = times.pop("driver")
    return RuntimeLadder(
        runtime=path.runtime,
        runtime_version=path.runtime_version,
        call=path.call,
        loops={lp.name: Loop(lp.code, tuple(times[lp.name])) for lp in path.loops},
        steps=path.steps,
        full=path.full,
        calls=options.calls,
        driver=driver,
        driver_ns=tuple(driver_ns),
    )


def measure(
    builders: Sequence[PathBuilder], options: Options, repeats: int, seed: int = 0
) -> Ladder:
    runtimes = tuple(measure_path(b, options, repeats, seed) for b in builders)
    return Ladder(options.calls, repeats, options.batch, options.threads,
                  platform.python_version(), runtimes)  # fmt: skip
