"""N copies of a driver serving one schedule at a rate (``serve-rate --processes N``): how the
arrivals are dealt to them, and what the copies did made one point.

A service of N worker processes has a front that deals its requests, and how it deals them
decides what a stalled worker costs. Two rules, each a service's own:

- **shared counter** (SHARED): the first free copy takes the next arrival, from one count
  every copy maps (``paced FILE START COUNTER``, contract 6), as gunicorn's and uvicorn's
  workers accept from one listening socket. A copy that stalls delays only its own call;
  the free copies serve the arrivals behind it.
- **round-robin** (ROUND_ROBIN): copy p is dealt arrivals p, p + N, p + 2N, ..., as
  Node.js's cluster deals connections: each copy serves a schedule of its own (``paced
  FILE_p START``); a copy that stalls delays every arrival dealt to it, free copies or not.

Every copy starts from the same START, and each arrival's times count from its own due
time. The record says which rule dealt (``serving["deal"]``). A Python row is served under a
shared counter, a Node.js row round-robin (their ecosystems' fronts); any row either way on
request, where its kit can take an arrival from a shared count (SHARED_COUNTER_KITS).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from callbench.contract import NOT_SERVED_NS
from callbench.errors import DataError
from callbench.harness.copies import Copies
from callbench.harness.expected import Checked, Expected
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.processes import DriverError

SHARED = "shared counter"
ROUND_ROBIN = "round-robin"
DEALS = {"shared": SHARED, "round-robin": ROUND_ROBIN}
# The kits whose copies take an arrival from a count they share, and how (a kit joins by its
# line; the others are served round-robin).
SHARED_COUNTER_KITS = {"python": "the count read and written under the file's flock"}
# One copy's outputs checked: each output's nearness, and the first problem.
Check = Callable[[], tuple[list[Checked], str | None]]
# Each ecosystem's own front, where the language has one that deals to processes.
ECOSYSTEM_DEALS = {"python": SHARED, "node": ROUND_ROBIN}


def deal_for(language: str, asked: str | None) -> str:
    """The rule that deals a row's arrivals to its copies: the one asked for, else its
    ecosystem's, else a shared counter where its kit has one, else round-robin."""
    if asked is not None:
        return asked
    if language in ECOSYSTEM_DEALS:
        return ECOSYSTEM_DEALS[language]
    return SHARED if language in SHARED_COUNTER_KITS else ROUND_ROBIN


def how(deal: str, language: str) -> str:
    """What the record says of how the copies were dealt their arrivals."""
    if deal == ROUND_ROBIN:
        return "copy p served arrivals p, p + N, ... (Node.js's cluster's way)"
    return ("the first free copy took the next arrival (gunicorn's way): "
            f"{SHARED_COUNTER_KITS[language]}")  # fmt: skip


def why_not(language: str, deal: str) -> str | None:
    """Why a row's copies cannot be dealt its arrivals by ``deal``, if they cannot."""
    if deal == SHARED and language not in SHARED_COUNTER_KITS:
        kits = ", ".join(sorted(SHARED_COUNTER_KITS))
        return (f"its kit takes no arrival from a counter shared across processes ({kits} "
                "do): serve it round-robin")  # fmt: skip
    return None


@dataclass(frozen=True)
class Dealt:
    """One point served by N copies: their answers as one driver's ``paced`` answer, every
    arrival's times in arrival order, and the copy that served each."""

    answer: dict[str, Any]
    times: ArrivalTimes
    copy_of: np.ndarray  # arrival j's copy


def serve_point(copies: Copies, schedule: Path, offsets: np.ndarray, start_ns: int,
                deal: str, limit: float) -> Dealt:  # fmt: skip
    """``offsets`` (already in ``schedule``) served by every copy from ``start_ns``, dealt by
    ``deal``, each copy answering within ``limit`` s; DriverError naming the first copy that
    fails (the caller ends them all)."""
    n, calls = len(copies.copies), len(offsets)
    with tempfile.TemporaryDirectory(prefix="callbench-deal-", dir=copies.workdir) as folder:
        if deal == SHARED:
            counter = Path(folder, "next-arrival.i64")
            np.zeros(1, dtype="<i8").tofile(counter)
            copies.send(f"paced {schedule} {start_ns} {counter}")
            dealt = [calls] * n
        else:
            for p in range(n):
                offsets[p::n].tofile(Path(folder, f"arrivals-{p}.i64"))
            copies.each_send([f"paced {Path(folder, f'arrivals-{p}.i64')} {start_ns}"
                              for p in range(n)])  # fmt: skip
            dealt = [len(offsets[p::n]) for p in range(n)]
        answers = copies.each_event("paced", limit)
    for p, (answer, k) in enumerate(zip(answers, dealt, strict=True)):
        if answer.get("calls") != k or answer.get("start_ns") != start_ns:
            raise DriverError(f"process {p}: paced answered {answer.get('calls')} calls from "
                              f"{answer.get('start_ns')}, for {k} from {start_ns}")  # fmt: skip
    own = [read_times(c.workdir / "latencies.i64", k) for c, k in zip(copies.copies, dealt,
                                                                      strict=True)]  # fmt: skip
    times, copy_of = shared_times(own) if deal == SHARED else dealt_times(own, calls)
    served = np.bincount(copy_of, minlength=n)
    busy = [a for a, s in zip(answers, served, strict=True) if s]
    end = max(int(a["end_ns"]) for a in busy)
    answer = {"event": "paced", "calls": calls, "ns": end - start_ns, "start_ns": start_ns,
              "end_ns": end, "ready_ns": max(int(a["ready_ns"]) for a in answers),
              "callers": sum(int(a.get("callers", 1)) for a in answers),
              "caller_calls": [int(c) for a in answers for c in a.get("caller_calls", [])],
              "copy_calls": served.tolist()}  # fmt: skip
    return Dealt(answer, times, copy_of)


def read_times(path: Path, calls: int) -> np.ndarray:
    """A copy's ``--latencies`` after a paced round: 3 x ``calls`` int64 (DataError)."""
    times = ArrivalTimes.read(path, calls)
    return np.stack([times.taken, times.started, times.ended])


def shared_times(own: Sequence[np.ndarray]) -> tuple[ArrivalTimes, np.ndarray]:
    """Every copy's 3 x K times under a shared counter as one set: arrival j's from the one
    copy that served it (the others left NOT_SERVED_NS); DriverError where none or two did."""
    served = np.stack([t[0] != NOT_SERVED_NS for t in own])  # copies x K
    count = served.sum(axis=0)
    if (count != 1).any():
        j = int(np.flatnonzero(count != 1)[0])
        raise DriverError(f"arrival {j} was served by {int(count[j])} copies, not one "
                          "(a shared counter deals each arrival once)")  # fmt: skip
    copy_of = served.argmax(axis=0)
    merged = np.stack(own)[copy_of, :, np.arange(len(copy_of))]  # K x 3
    return ArrivalTimes(merged[:, 0], merged[:, 1], merged[:, 2]), copy_of


def dealt_times(own: Sequence[np.ndarray], calls: int) -> tuple[ArrivalTimes, np.ndarray]:
    """Every copy's times, round-robin, as one set in arrival order (copy p's i-th is
    arrival p + i N)."""
    n = len(own)
    merged = np.empty((3, calls), dtype=np.int64)
    copy_of = np.empty(calls, dtype=np.int64)
    for p, times in enumerate(own):
        merged[:, p::n] = times
        copy_of[p::n] = p
    return ArrivalTimes(merged[0], merged[1], merged[2]), copy_of


def copy_checks(copies: Copies, deal: str, copy_of: np.ndarray, slots: int,
                expected: Expected, batch: int) -> list[Check]:  # fmt: skip
    """Each copy's outputs after the last point, checked against the reference's samples it
    holds. Round-robin, copy p's own schedule filled its first min(K_p, M) slots, slot i with
    call i's samples; under a shared counter, copy p holds the slots whose last arrival it
    served (slot j mod M: call j mod M's), its others still poison, and only those are its."""
    n, calls = len(copies.copies), len(copy_of)
    filled = min(calls, slots)
    last = np.arange(calls - filled, calls)  # each filled slot's last arrival
    whole = expected.of_callers(1, filled, batch)

    def of(p: int, path: Path) -> tuple[list[Checked], str | None]:
        if deal == ROUND_ROBIN:
            return expected.of_callers(1, min(len(copy_of[p::n]), slots), batch).check(path)
        mine = np.sort(last[copy_of[last] == p] % slots)
        if not len(mine):
            return [], None  # it served no filled slot's last arrival: its outputs are poison
        try:
            data = picked_calls(path, whole, mine, batch)
        except DataError as exc:
            return [], str(exc)
        return whole.at_calls(mine, batch).check_bytes(data)

    return [partial(of, p, path) for p, path in enumerate(copies.outputs)]


def picked_calls(path: Path, whole: Expected, calls: np.ndarray, batch: int) -> bytes:
    """The outputs file at ``path`` (``whole``'s size) cut to ``calls``' samples, each output
    in turn (DataError where it is not that size)."""
    data = path.read_bytes() if path.is_file() else b""
    want = sum(ref.nbytes for _, ref in whole.outputs)
    if len(data) != want:
        raise DataError(path, f"holds {len(data)} bytes of outputs, expected {want}")
    picked, start = [], 0
    for _, ref in whole.outputs:
        block = np.frombuffer(data, np.uint8, ref.nbytes, start).reshape(len(ref) // batch, -1)
        picked.append(block[calls].tobytes())
        start += ref.nbytes
    return b"".join(picked)
