"""A driver of the Python kit that takes callers (contract 4) and misbehaves in one chosen
caller on request, for the callers' tests.

``python callers_driver.py MODE DRIVER_ID <contract options>``; each caller is python-numpy's
forward over its own arrays, so its outputs are the model's and only MODE can fail it:

- ``ok``: every caller as it should be;
- ``fail-in-caller-C``: caller C raises in its first round;
- ``wrong-in-caller-C``: caller C stores zeros;
- ``hang-in-caller-C``: caller C sleeps for ten minutes in its first round;
- ``call-takes-US``: every call takes US microseconds at least (a spin on the clock before
  the forward), so a caller serves at most 1e6 / US calls a second;
- ``stall-at-call-J``: after its warm-up, the first call of the samples of call J (whichever
  caller makes it) sleeps 50 ms first (contract 6's paced test: the calls that queued behind
  it carry the wait);
- ``copy-P-MODE``: MODE in copy P of N only (``--processes``: the harness runs copy P in a
  folder ``process-P``), the other copies as ``ok``.

It takes ``--gathered`` (contract 7): its batcher's call of n samples is python-numpy's
forward at batch n, and the result line's notes count the samples those calls took
(``gathered_samples``), so a test can tell a gathered call from a padded one.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from dataclasses import replace
from typing import Any

from callbench.driver_options import Options
from callbench.driverkit.driver_main import driver_main
from callbench.driverkit.model import (
    PER_CALLER,
    Arrays,
    Gathered,
    Loop,
    Model,
    Sharing,
    every_tensor,
    takes_callers,
    takes_gathered,
)
from callbench.drivers import numpy_forward

STALL_S = 0.05


def stalling(loop: Loop, at: int, warmup: int) -> Loop:
    """``loop`` with one stall: the first call of index ``at`` after ``warmup`` calls (each
    caller's own) sleeps STALL_S, once in the whole process."""
    made = [0]

    def stalled(start: int, stop: int) -> None:
        made[0] += stop - start
        if made[0] > warmup and start <= at < stop and not STALLED.is_set():
            STALLED.set()
            time.sleep(STALL_S)
        loop(start, stop)

    return stalled


STALLED = threading.Event()


def outputs_option() -> str:
    """This driver's --outputs (where a copy's folder is named)."""
    args = sys.argv
    return args[args.index("--outputs") + 1] if "--outputs" in args else ""


def taking(loop: Loop, us: int) -> Loop:
    """``loop`` with each call made to take ``us`` microseconds at least."""

    def slow(start: int, stop: int) -> None:
        for i in range(start, stop):
            end = time.perf_counter_ns() + us * 1000
            while time.perf_counter_ns() < end:
                pass
            loop(i, i + 1)

    return slow


def mode_setup(mode: str) -> object:
    if found := re.fullmatch(r"copy-(\d+)-(.+)", mode):
        copy, mode = found.groups()
        mode = mode if f"process-{copy}" in outputs_option() else "ok"
    how, _, which = mode.rpartition("-")
    chosen = int(which) if how in ("fail-in-caller", "wrong-in-caller", "hang-in-caller") else -1
    stall_at = int(which) if how == "stall-at-call" else -1
    call_us = int(which) if how == "call-takes" else 0

    @takes_gathered
    @takes_callers
    @every_tensor
    def setup(options: Options, inputs: Arrays, outputs: Arrays) -> Model:
        def shaped(loop: Loop) -> Loop:
            if stall_at >= 0:
                return stalling(loop, stall_at, options.warmup)
            return taking(loop, call_us) if call_us else loop

        def caller(ins: Arrays, outs: Arrays) -> Loop:
            c = int(threading.current_thread().name.removeprefix("caller "))  # the kit's name
            forward = numpy_forward.setup(options, ins[0], outs[0]).loop
            if stall_at >= 0 or call_us:
                return shaped(forward)
            return misbehaving(forward, outs, c) if c == chosen else forward

        def misbehaving(forward: Loop, outs: Arrays, c: int) -> Loop:
            calls = [0]

            def misbehaving(start: int, stop: int) -> None:
                calls[0] += stop - start
                if calls[0] <= options.warmup:  # the warm-up goes as it should
                    return forward(start, stop)
                if how == "fail-in-caller":
                    raise RuntimeError(f"caller {c} failed on purpose")
                if how == "hang-in-caller":
                    time.sleep(600)
                forward(start, stop)
                outs[0][start * options.batch : stop * options.batch] = 0
                return None

            return misbehaving

        one = numpy_forward.setup(options, inputs[0], outputs[0])
        # At one caller (a copy of --processes N), caller 0 is the driver's own loop.
        alone = misbehaving(one.loop, outputs, 0) if chosen == 0 else shaped(one.loop)
        notes: dict[str, Any] = {}
        return Model(
            alone,
            one.runtime_version,
            notes,
            sharing=Sharing(
                PER_CALLER, "python-numpy's forward, its buffers made by each caller", caller
            ),
            gathered=gathered(options, inputs, outputs, notes) if options.gathered else None,
        )

    return setup


def gathered(options: Options, inputs: Arrays, outputs: Arrays, notes: dict[str, Any]) -> Gathered:
    """The batcher's call of call 0's first n samples: python-numpy's forward at batch n (one
    made for each n), the samples it took counted in ``notes``."""
    loops = [numpy_forward.setup(replace(options, batch=n), inputs[0][:n], outputs[0][:n]).loop
             for n in range(1, options.batch + 1)]  # fmt: skip
    notes["gathered_samples"] = 0

    def call(n: int) -> None:
        loops[n - 1](0, 1)
        notes["gathered_samples"] += n

    return call


if __name__ == "__main__":
    sys.exit(driver_main(sys.argv[2], mode_setup(sys.argv[1]), sys.argv[3:]))  # type: ignore[arg-type]
