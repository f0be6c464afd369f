"""The driver side of the contract (docs/contract.md), written once for Python drivers.

A Python driver supplies ``setup(options, inputs, outputs) -> Loop``: it loads
its model and returns ``loop(start, stop)``, which runs calls ``[start, stop)``
and stores every result into ``outputs``. This module parses the options,
reads and checks the inputs, warms up, times whole repeats, optionally times
calls one by one, writes the outputs and prints the JSON line.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from callbench.artifacts import INPUTS, read_inputs, write_atomic
from callbench.cli_types import Parser, count, report_errors
from callbench.errors import ArtifactError, UsageError

Loop = Callable[[int, int], None]
LATENCY_CALLS = 100_000


@dataclass(frozen=True)
class Options:
    models: Path
    calls: int
    warmup: int
    repeats: int
    batch: int
    threads: int
    outputs: Path | None
    latencies: Path | None
    debug: bool


@dataclass(frozen=True)
class DriverInfo:
    """What the record says about a driver besides its timings."""

    id: str
    runtime: str
    runtime_version: str
    artifact: str
    language: str = "Python"


@dataclass(frozen=True)
class Prepared:
    """What ``setup`` returns: the loop, plus anything worth keeping in the record."""

    loop: Loop
    notes: str | None = None
    # Entered once around warm-up, repeats and per-call timing (e.g.
    # torch.inference_mode), so no call pays for entering it.
    context: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext


Setup = Callable[[Options, np.ndarray, np.ndarray], Prepared]


def parse_options(argv: Sequence[str]) -> Options:
    parser = Parser(add_help=False)
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--calls", type=count(1), default=1_000_000)
    parser.add_argument("--warmup", type=count(0), default=1000)
    parser.add_argument("--repeats", type=count(1), default=3)
    parser.add_argument("--batch", type=count(1), default=1)
    parser.add_argument("--threads", type=count(1), default=1)
    parser.add_argument("--outputs", type=Path)
    parser.add_argument("--latencies", type=Path)
    parser.add_argument("--debug", action="store_true")
    return Options(**vars(parser.parse_args(argv)))


def progress(stage: str, repeat_ns: Sequence[int] = ()) -> None:
    """A line the harness shows while it waits (docs/contract.md, Progress)."""
    last = f" last={repeat_ns[-1]}" if repeat_ns else ""
    print(f"progress: {stage}{last}", file=sys.stderr, flush=True)


def _warm(loop: Loop, calls: int, warmup: int) -> None:
    """Warm-up call j runs call j mod calls, as the contract says."""
    done = 0
    while done < warmup:
        step = min(calls, warmup - done)
        loop(0, step)
        done += step


def _latencies(loop: Loop, calls: int) -> np.ndarray:
    n = min(calls, LATENCY_CALLS)
    out = np.empty(n, dtype="<i8")
    clock = time.perf_counter_ns
    for i in range(n):
        t0 = clock()
        loop(i, i + 1)
        out[i] = clock() - t0
    return out


def measure(info: DriverInfo, setup: Setup, options: Options) -> dict[str, object]:
    """Load, warm up, time the repeats; return the contract's JSON object."""
    needed = options.calls * options.batch
    try:
        inputs = read_inputs(options.models, needed)
    except ArtifactError as exc:
        if "the run needs" in exc.problem:
            raise UsageError(f"--calls x --batch = {needed} but {exc}") from None
        raise
    inputs = np.ascontiguousarray(inputs[:needed])
    outputs = np.zeros((needed, 1), dtype=np.float32)

    t0 = time.perf_counter_ns()
    prepared = setup(options, inputs, outputs)
    load_ns = time.perf_counter_ns() - t0

    with prepared.context():
        progress("warm-up")
        _warm(prepared.loop, options.calls, options.warmup)
        repeat_ns: list[int] = []
        clock = time.perf_counter_ns
        for k in range(options.repeats):
            progress(f"repeat {k + 1}/{options.repeats}", repeat_ns)
            outputs.fill(np.nan)  # a call that stores nothing shows up as an error
            t0 = clock()
            prepared.loop(0, options.calls)
            repeat_ns.append(clock() - t0)
        if options.outputs is not None:
            write_atomic(options.outputs, outputs.astype("<f4").tobytes())
        if options.latencies is not None:
            latencies = _latencies(prepared.loop, options.calls)
            write_atomic(options.latencies, latencies.tobytes())
    result: dict[str, object] = {
        "driver": info.id,
        "language": info.language,
        "runtime": info.runtime,
        "runtime_version": info.runtime_version,
        "artifact": info.artifact,
        "calls": options.calls,
        "batch": options.batch,
        "threads": options.threads,
        "warmup": options.warmup,
        "repeats": options.repeats,
        "repeat_ns": repeat_ns,
        "load_ns": load_ns,
    }
    if prepared.notes:
        result["notes"] = prepared.notes
    return result


def main(info: DriverInfo, setup: Setup, argv: Sequence[str] | None = None) -> int:
    """Run a driver as a program: JSON on stdout, or one error line on stderr."""
    args = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        print(json.dumps(measure(info, setup, parse_options(args))))
        return 0

    return report_errors(info.id, body, "--debug" in args, catch_all=True)


def model_error(path: Path, exc: BaseException) -> ArtifactError:
    """Wrap a runtime's load failure so the user sees the file and the first line."""
    text = str(exc).strip().splitlines()
    return ArtifactError(path, f"cannot be loaded ({text[0] if text else type(exc).__name__})")


__all__ = ["INPUTS", "DriverInfo", "Loop", "Options", "Prepared", "main", "model_error"]
