"""Instructions per call: each driver served under callgrind, its rounds counted, not timed.

A count does not move with a neighbour's load, so it is the figure to compare
on a shared machine (as ``torch.utils.benchmark``'s ``collect_callgrind``,
CodSpeed and Gungraun do). Each driver loads and warms up uninstrumented;
then, a few times, a round of one call (the baseline), one of K calls and one
of 2K calls are each counted alone (``round``, then a dump). Its outputs
are checked against the reference as in a timed run: a driver whose outputs
do not match gets no figure. Two drivers are counted at once, unpinned.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from callbench.errors import RunError
from callbench.harness import console
from callbench.harness.count import callgrind
from callbench.harness.count.builds import Builds
from callbench.harness.count.counter import Counter
from callbench.harness.count.options import (
    JIT_LANGUAGES,
    JIT_MAX_CALLS,
    JIT_PAIRS,
    MAX_CALLS,
    MIN_CALLS,
    MOST_JIT_PAIRS,
    MOST_PAIRS,
    block,
    counts_longer,
)
from callbench.harness.expected import read_expected
from callbench.harness.launch import base_record
from callbench.harness.options import RunOptions
from callbench.harness.processes import kill_all
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records import count as derive
from callbench.records.record import Record
from callbench.records.store import read_record, write_record
from callbench.registry import language_key

# The languages whose rows count longest, first: a JIT row settles and counts five pairs
# (120-210 s in run 20261128T1205Z-count-issue67-2), an interpreter loads its runtime
# under Valgrind (a minute for torch); compiled rows took 6-32 s. Started first, the long
# rows leave the short ones to fill both workers to the end (the node rows, counted last
# in registry order, kept one worker busy alone). A row whose rounds or pairs are more
# than its language's goes first of all: rust-tract-state's nine pairs (101 s), started
# last in registry order, kept one worker busy alone at the end of run
# 20261129T0914Z-count-issue67-22 (rust-tract's count the same now).
SLOWEST_FIRST = (*sorted(JIT_LANGUAGES), "python")


def _record(run_dir: Path, spec: DriverSpec, counted: dict[str, Any]) -> Record:
    """The driver's record in the run with its count; a new, untimed one if it had none."""
    path = run_dir / f"{spec.id}.json"
    if path.is_file():
        try:
            record = read_record(path)
        except RunError as exc:
            console.say(f"  {spec.id}: {exc}; its record is written anew")
        else:
            record.count = counted
            return record
    record = base_record(spec, RunOptions(), None)
    record.status, record.error = "skipped", "not timed in this run (instructions counted only)"
    record.warmup = int(counted.get("warmup", 0))
    record.count = counted
    return record


def describe(counted: dict[str, Any]) -> str:
    if counted["status"] != "ok":
        return f"{counted['status']}: {counted['error']}"
    text = f"{counted['instructions_per_call']:,.0f} instructions/call"
    if counted.get("est_cycles_per_call") is not None:
        text += f", ~{counted['est_cycles_per_call']:,.0f} est. cycles"
    width = counted.get("spread")
    if width is not None:
        text += f" (pairs within {width:.2%}{', varying' if counted['varying'] else ''})"
    return text + f" [{counted['seconds']:.0f} s]"


def slowest_first(specs: Sequence[DriverSpec]) -> list[DriverSpec]:
    """The order the rows are started in: those that count longer than their language's
    first, then by SLOWEST_FIRST, else as given."""
    rank = {language: at for at, language in enumerate(SLOWEST_FIRST)}

    def key(spec: DriverSpec) -> tuple[bool, int]:
        return not counts_longer(spec.id), rank.get(language_key(spec), len(rank))

    return sorted(specs, key=key)


def count_drivers(specs: Sequence[DriverSpec], options: RunOptions, run_dir: Path) -> list[Record]:
    """Count each driver, ``options.jobs`` at once; each record is written as its count ends."""
    expected = read_expected(options.models, art.signature(options.models))
    most = 2 * (options.calls or MAX_CALLS)
    if most > expected.samples:
        raise RunError(
            f"a pair's second round takes up to {most} samples, "
            f"{options.models / expected.outputs[0][0].file} holds {expected.samples}"
        )
    reason = callgrind.unavailable()
    done: list[Record] = []

    def write(spec: DriverSpec, counted: dict[str, Any]) -> None:
        record = _record(run_dir, spec, counted)
        write_record(run_dir, record)
        done.append(record)
        console.clear()
        console.say(f"  {spec.id}: {describe(counted)}")

    if reason is not None:
        for spec in specs:
            write(spec, block(options, "skipped", reason))
        return done
    k = options.calls or f"calibrated, {MIN_CALLS}-{MAX_CALLS}, a JIT row's up to {JIT_MAX_CALLS}"
    console.say(
        f"counting {len(specs)} drivers under callgrind into {run_dir.name}: "
        f"{options.pairs} pairs of rounds of K and 2K calls, each after a baseline round of "
        f"{derive.BASELINE_CALLS} (a JIT row's at least {JIT_PAIRS}; "
        f"two more while they spread wide, up to {MOST_PAIRS}, a JIT row's {MOST_JIT_PAIRS}; "
        f"K {k}), {options.jobs} at once"
    )
    with tempfile.TemporaryDirectory(prefix="callbench-count-") as tmp:
        builds = Builds(specs, options.models, Path(tmp))

        def count_one(spec: DriverSpec, workdir: Path) -> dict[str, Any]:
            # The build is resolved in the worker: a row of the AVX2 rebuild waits for it there.
            return Counter(spec, options, workdir, expected, stop, builds.of(spec)).run()

        pool = ThreadPoolExecutor(max_workers=max(1, options.jobs))
        stop = threading.Event()
        running: dict[Future[dict[str, Any]], DriverSpec] = {}
        for spec in slowest_first(specs):
            workdir = Path(tmp) / spec.id
            workdir.mkdir()
            running[pool.submit(count_one, spec, workdir)] = spec
        try:
            pending = set(running)
            while pending:
                finished, pending = wait(pending, timeout=1.0, return_when="FIRST_COMPLETED")
                for future in finished:
                    write(running[future], future.result())
        except KeyboardInterrupt as interrupt:
            stop.set()
            for future in pending:
                future.cancel()
            kill_all()
            why = getattr(interrupt, "name", "SIGINT")
            for future in pending:
                if not future.cancelled():
                    write(running[future], block(options, "failed", f"interrupted ({why})"))
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            kill_all()
    return done
