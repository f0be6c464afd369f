"""A driver that follows contract v2 and misbehaves on request, for the harness's tests.

``python fake_driver.py MODE <contract options>``; it answers with the real
reference outputs, so only the misbehaviour named by MODE can fail it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import numpy as np


def option(args: list[str], name: str, default: str) -> str:
    return args[args.index(name) + 1] if name in args else default


def main() -> None:
    mode, args = sys.argv[1], sys.argv[2:]
    models, calls = Path(option(args, "--models", "models")), int(option(args, "--calls", "1"))
    batch, outputs = int(option(args, "--batch", "1")), Path(option(args, "--outputs", "/dev/null"))
    reference = np.fromfile(models / "reference.f32", dtype="<f4")
    say = lambda data: print(json.dumps(data), flush=True)  # noqa: E731
    # At --processes N the harness runs copy P in a folder process-P (harness/copies.py).
    copy = int(found.group(1)) if (found := re.search(r"process-(\d+)", str(outputs))) else 0
    if (pids := os.environ.get("FAKE_PIDS_DIR")) is not None:
        Path(pids, str(os.getpid())).touch()
    if mode == "hang-loading":
        time.sleep(600)
    say({"event": "ready", "load_ns": 1000})
    rounds, last = [], 0
    for line in sys.stdin:
        verb, _, count = line.strip().partition(" ")
        if verb == "end":
            break
        k = int(count)
        if verb == "latencies":
            np.arange(1, k + 1, dtype="<i8").tofile(option(args, "--latencies", "/dev/null"))
            say({"event": "latencies", "calls": k})
            continue
        if mode == "crash-in-round-3" and len(rounds) == 2 + (mode_calibrates(args)):
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "copy-1-crashes-in-round-3" and copy == 1 and len(rounds) == 2:
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "hang-in-round" and len(rounds) >= 1:
            time.sleep(600)
        if mode == "sets-own-affinity" and len(rounds) == 1:
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))  # as OpenVINO's pinning did
        ns = 1000 * k
        cpu = ns
        if mode == "preempted-once" and len(rounds) == 1:
            cpu = ns // 2  # as if another process had the core for half the round
        # When the round ran: copy P starts P x 500 ns after copy 0 (known offsets).
        start = (SPACED_START if mode == "spaced-copies" else time.monotonic_ns()) + copy * 500
        rounds.append({"calls": k, "ns": ns, "cpu_ns": cpu, "start_ns": start,
                       "end_ns": start + ns})  # fmt: skip
        last = k
        say({"event": "round", **rounds[-1]})
    out = reference[: last * batch].copy()
    if mode == "wrong-outputs":
        out[:] = 0
    if mode.startswith("echo"):  # a floor's: each call's outputs are its inputs' first bytes
        inputs = np.fromfile(models / "inputs.f32", dtype="<f4")[: last * batch * 2]
        out = inputs.reshape(last, 2 * batch)[:, :batch].reshape(-1).copy()
        if mode == "echo-one-bit-off":
            out.view("<i4")[-1] ^= 1
    out.tofile(outputs)
    if mode == "garbage":
        print("hello, no JSON here")
        return
    driver = "someone-else" if mode == "wrong-id" else option(args, "--driver-id", "python-fake")
    say({"driver": driver, "calls": calls, "batch": batch,
         "threads": int(option(args, "--threads", "1")), "runtime_version": "0",
         "load_ns": 1000, "peak_rss_bytes": 1 << 20, "rounds": rounds, "notes": {}})  # fmt: skip


# The spaced copies' round 0 start, on a clock of their own (the harness reads only the gaps).
SPACED_START = 10**12


def mode_calibrates(args: list[str]) -> int:
    """Rounds the harness spends calibrating before the timed ones (none with fixed calls)."""
    return 0


if __name__ == "__main__":
    main()
