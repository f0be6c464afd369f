"""The few contract options an independent caller needs, and its side of the round dialogue.

Written apart from the driver kit on purpose: these callers share no code
with the drivers, so their times show what the kit adds (nothing, we hope).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np


def parse(*, callers: bool = False) -> argparse.Namespace:
    """The options; ``callers``: also --callers N, threads calling at once."""
    p = argparse.ArgumentParser()
    p.add_argument("--models", type=Path, default=Path("models"))
    for name, default in (("calls", 1_000_000), ("warmup", 1000), ("repeats", 3),
                          ("batch", 1), ("threads", 1)):  # fmt: skip
        p.add_argument(f"--{name}", type=int, default=default)
    p.add_argument("--warmup-time", type=float, default=2.0)
    p.add_argument("--outputs", type=Path)
    p.add_argument("--latencies", type=Path)  # accepted; `latencies K` times nothing here
    p.add_argument("--serve", action="store_true")
    if callers:
        p.add_argument("--callers", type=int, default=1)
    args = p.parse_args()
    if callers and args.callers < 1:
        p.error("--callers must be >= 1")
    if (min(args.calls, args.repeats, args.batch, args.threads) < 1 or args.warmup < 0
            or not args.warmup_time >= 0):  # fmt: skip
        p.error(
            "--calls, --repeats, --batch and --threads must be >= 1, --warmup and "
            "--warmup-time >= 0"
        )
    return args


def warm_up(args: argparse.Namespace) -> Iterator[int]:
    """The contract's warm-up as the call indices to make: --warmup of them, or fewer once
    five have been made and --warmup-time seconds have passed (0: no time limit)."""
    end = time.perf_counter() + args.warmup_time
    for j in range(args.warmup):
        if args.warmup_time and j >= 5 and time.perf_counter() >= end:
            return
        yield j % args.calls


def inputs(args: argparse.Namespace, features: int = 2) -> np.ndarray:
    """Each call's samples, [calls, batch, features] (features: what the model takes)."""
    x = np.fromfile(args.models / "inputs.f32", dtype="<f4").reshape(-1, features)
    return x[: args.calls * args.batch].reshape(args.calls, args.batch, features)


# The manifest's dtype names as NumPy's little-endian types (contract 3).
DTYPES = {"float32": "<f4", "float16": "<f2", "float64": "<f8", "int64": "<i8", "int32": "<i4",
          "int8": "i1", "uint8": "u1", "bool": "?"}  # fmt: skip


def tensor_inputs(args: argparse.Namespace, *, every: bool = False) -> list[np.ndarray]:
    """Each input's samples as the manifest's tensors table lists them, [calls, batch, *shape];
    ``every``: as many calls as the file holds, not --calls of them."""
    table = json.loads((args.models / "manifest.json").read_text())["tensors"]
    found = []
    for t in table["inputs"]:
        x = np.fromfile(args.models / t["file"], dtype=DTYPES[t["dtype"]]).reshape(-1, *t["shape"])
        calls = len(x) // args.batch if every else args.calls
        found.append(x[: calls * args.batch].reshape(calls, args.batch, *t["shape"]))
    return found


def say(data: dict[str, object]) -> None:
    print(json.dumps(data), flush=True)


def serve(args: argparse.Namespace, driver: str, version: str,
          calls: Callable[[int], list[float] | tuple[np.ndarray, ...]],
          load_ns: int) -> None:  # fmt: skip
    """After the caller's own warm-up (``warm_up``), time whole rounds of ``calls(k)``: asked
    on stdin, or --repeats of them."""
    script = [f"round {args.calls}"] * args.repeats
    if args.serve:
        say({"event": "ready", "load_ns": load_ns})
    rounds: list[dict[str, int]] = []
    outputs: list[float] | tuple[np.ndarray, ...] = []
    for line in sys.stdin if args.serve else script:
        verb, _, count = line.strip().partition(" ")
        if verb == "end":
            break
        if verb not in ("round", "latencies") or not count.isdigit():
            sys.exit(f"{driver}: usage: unknown command {line.strip()!r}")
        if verb == "latencies":
            say({"event": "latencies", "calls": int(count)})
            continue
        cpu0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        outputs = calls(int(count))
        ns, cpu = time.perf_counter_ns() - t0, time.thread_time_ns() - cpu0
        rounds.append({"calls": int(count), "ns": ns, "cpu_ns": cpu})
        if args.serve:
            say({"event": "round", **rounds[-1]})
    if args.outputs is not None:
        # Several outputs come as one array each, written one after another (contract 3).
        each = outputs if isinstance(outputs, tuple) else (np.asarray(outputs, dtype="<f4"),)
        args.outputs.write_bytes(b"".join(np.ascontiguousarray(o).tobytes() for o in each))
    say({"driver": driver, "calls": args.calls, "batch": args.batch, "threads": args.threads,
         "runtime_version": version, "load_ns": load_ns, "peak_rss_bytes": None,
         "rounds": rounds, "notes": {"caller": "independent plain loop"}})  # fmt: skip
