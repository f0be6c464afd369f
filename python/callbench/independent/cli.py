"""The few contract options an independent caller needs, and its JSON line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--models", type=Path, default=Path("models"))
    for name, default in (("calls", 1_000_000), ("warmup", 1000), ("repeats", 3),
                          ("batch", 1), ("threads", 1)):  # fmt: skip
        p.add_argument(f"--{name}", type=int, default=default)
    p.add_argument("--outputs", type=Path)
    p.add_argument("--latencies", type=Path)  # accepted, not written: no per-call timing here
    args = p.parse_args()
    if min(args.calls, args.repeats, args.batch, args.threads) < 1 or args.warmup < 0:
        p.error("--calls, --repeats, --batch and --threads must be >= 1, --warmup >= 0")
    return args


def inputs(args: argparse.Namespace) -> np.ndarray:
    x = np.fromfile(args.models / "inputs.f32", dtype="<f4").reshape(-1, 2)
    return x[: args.calls * args.batch].reshape(args.calls, args.batch, 2)


def finish(args: argparse.Namespace, driver: str, version: str, outputs: list[float],
           repeat_ns: list[int], load_ns: int) -> None:  # fmt: skip
    if args.outputs is not None:
        np.asarray(outputs, dtype="<f4").tofile(args.outputs)
    print(json.dumps({"driver": driver, "runtime_version": version, "repeat_ns": repeat_ns,
                      "load_ns": load_ns}))  # fmt: skip
    sys.stdout.flush()
