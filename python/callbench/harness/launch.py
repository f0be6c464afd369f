"""Starting a driver process: its contract options, environment and CPUs; ready within a limit.

Drivers load on every usable CPU (a few at once) and are pinned to the timed
CPUs once ready; a runtime that holds its threads to the CPUs it loaded on
loads pinned.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.harness import console, machine, numpy_pages
from callbench.harness import warmup as warmups
from callbench.harness.copies import Copies
from callbench.harness.options import ATOL, RunOptions
from callbench.harness.processes import DriverProcess
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.threads import THREAD_VARIABLES

LOAD_LIMIT = 300.0
# Once a driver says it is warming up, the load limit no longer applies: the warm-up ends by
# its own time budget after a few calls, so only a call slower than a minute meets this.
WARMUP_LIMIT = 600.0
# Runtimes that hold their threads to the CPUs they had at load, so load on the
# core they are timed on: OpenVINO's CPU pinning (its default, and 1.45x faster
# a call here than with it off) moves the calling thread back on every call.
HOLDS_LOAD_CPUS = frozenset({"openvino"})


@dataclass
class Live:
    """A driver of the group and what the harness knows of it so far."""

    spec: DriverSpec
    record: Record
    workdir: Path
    process: DriverProcess | Copies | None = None  # Copies: --processes N
    calls: int = 0  # per round, once calibrated
    sent_rounds: int = 0  # every round command, calibration included
    expected_ns: float | None = None
    started: float = 0.0
    latencies: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def base_record(
    spec: DriverSpec, options: RunOptions, sweep: dict[str, Any] | None, tolerance: float = ATOL
) -> Record:
    return Record(
        kind="driver", id=spec.id, language=spec.language, runtime=spec.runtime,
        status="failed", artifact=spec.artifact, batch=options.batch, threads=options.threads,
        callers=options.all_callers, processes=options.processes,
        warmup=warmups.of_run(options).calls, tolerance=tolerance, sweep=sweep,
    )  # fmt: skip


def driver_env(spec: DriverSpec, threads: int) -> dict[str, str]:
    env = numpy_pages.as_given(os.environ)
    for name in THREAD_VARIABLES:
        env[name] = str(threads)
    env.update(spec.env())
    return env


@dataclass(frozen=True)
class Placement:
    """The CPUs drivers are timed on (None: not pinned) and those they load on."""

    cpus: set[int] | None
    load_cpus: set[int] | None

    @classmethod
    def of(cls, options: RunOptions) -> Placement:
        """N callers of T threads each get min(N x T, the usable CPUs) cores, in one process
        or over the copies of ``--processes``."""
        cpus = machine.driver_cpus(options.threads * options.all_callers, options.pin)
        return cls(cpus, set(machine.usable_cpus()) if cpus else None)

    def pin_back(self, live: Live) -> int:
        """Threads of the driver found off its pinned CPUs, pinned back for the next round."""
        if not self.cpus or live.process is None:
            return 0
        off = 0
        for pid in live.process.pids():  # every copy's at --processes N
            if moved := machine.threads_off(pid, self.cpus):
                machine.pin_process(pid, self.cpus)
                off += moved
        return off


def start(live: Live, options: RunOptions, max_calls: int, place: Placement, label: str) -> None:
    """Start the driver in serve mode, or its copies at --processes N (OSError when it
    cannot be started)."""
    spec = live.spec
    console.note(f"{label} {spec.id}: loading")
    live.started = time.monotonic()
    holds = spec.runtime in HOLDS_LOAD_CPUS

    def process(workdir: Path, cpus: set[int] | None) -> DriverProcess:
        driver_options = options.driver_options(
            max_calls, outputs=workdir / "outputs.f32", latencies=workdir / "latencies.i64",
            serve=True,
        )  # fmt: skip
        return DriverProcess([*spec.command(), *driver_options.arguments()],
                             driver_env(spec, options.threads), workdir,
                             cpus if holds else place.load_cpus)  # fmt: skip

    if options.processes == 1:
        live.process = process(live.workdir, place.cpus)
        return

    # Every copy over the same cores, as N callers' threads of one process are: the
    # scheduler places them in both, so threads and processes compare (and N copies that
    # the cores do not divide are not held to an uneven split).
    live.process = Copies.start(options.processes, live.workdir,
                                lambda workdir: process(workdir, place.cpus))  # fmt: skip


def wait_ready(live: Live, place: Placement, label: str) -> None:
    """Wait for the driver's ready line, then pin it (DriverError, OSError)."""
    assert live.process is not None
    ready = live.process.event(
        "ready",
        LOAD_LIMIT,
        warming_limit=WARMUP_LIMIT,
        on_warming=lambda: console.note(f"{label} {live.spec.id}: warm-up"),
    )
    if place.cpus:
        for pid in live.process.pids():  # every copy's at --processes N
            machine.pin_process(pid, place.cpus)
    record = live.record
    record.load_ns = int(ready.get("load_ns", 0))
    if "warmup_calls" in ready:  # an independent caller's ready line says nothing of it
        record.warmup, record.warmup_ns = int(ready["warmup_calls"]), int(ready["warmup_ns"])
    console.clear()
    warm = f", warm-up {record.warmup_ns / 1e9:.1f} s" if record.warmup_ns is not None else ""
    console.say(f"{label} {live.spec.id}: ready in "
                f"{time.monotonic() - live.started:.1f} s{warm}")  # fmt: skip
