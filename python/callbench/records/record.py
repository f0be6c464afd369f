"""The record: one measured row (a driver at one setting, or a kernel), with its raw samples.

As in pyperf and ``torch.utils.benchmark``, a record holds what was measured
(every round's calls, wall and CPU time) and derives every statistic from it.
Latency samples live beside the record in a compressed file (``latencies``),
so any percentile can be recomputed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from callbench.records import stats

SCHEMA_VERSION = 3
# Versions this callbench reads: 2 had no instruction counts (``count`` is None).
READABLE_VERSIONS = (2, 3)
Kind = Literal["driver", "kernel"]
Status = Literal["ok", "failed", "skipped"]


@dataclass
class Round:
    """One timed block of ``calls`` calls.

    ``index`` is the round it belongs to (a flagged round re-run keeps its
    index); ``flagged`` says why a round was not counted, None when it was;
    ``probe_ns`` and ``probe_after_ns`` are the contention probe timed on the
    driver's core just before and just after it.
    """

    index: int
    calls: int
    ns: int
    cpu_ns: int | None = None
    steal_ns: int | None = None
    flagged: str | None = None
    probe_ns: int | None = None
    probe_after_ns: int | None = None
    # Contract 4: the callers that each made ``calls`` calls at once, and each one's span.
    callers: int = 1
    caller_ns: list[int] | None = None

    @property
    def per_call_ns(self) -> float:
        """The round's wall time per call made, all callers' calls counted: one caller's
        time per call, and at N callers the inverse of their throughput together."""
        return self.ns / (self.calls * self.callers)


@dataclass
class Record:
    kind: Kind
    id: str
    language: str
    runtime: str
    status: Status
    error: str | None = None
    runtime_version: str | None = None
    artifact: str | None = None
    batch: int = 1
    threads: int = 1
    # Contract 4: callers calling the driver at once, and how many had their outputs checked
    # (every one, in a record that is ok; None before the outputs were read).
    callers: int = 1
    callers_verified: int | None = None
    # The processes the callers ran in: 1, threads of one process; N, N copies of the
    # driver (``callbench run --processes``), one caller each, every copy verified.
    processes: int = 1
    warmup: int = 0  # warm-up calls: the cap asked for, then what the ready line says was made
    rounds: list[Round] = field(default_factory=list)
    load_ns: int | None = None
    warmup_ns: int | None = None  # the warm-up's wall time, from the ready line
    peak_rss_bytes: int | None = None
    max_abs_error: float | None = None
    tolerance: float | None = None
    # A model of several outputs: each output's max error and tolerance, by name
    # (max_abs_error and tolerance above are those of the output nearest its tolerance).
    output_errors: dict[str, dict[str, float]] | None = None
    latencies: str | None = None
    sweep: dict[str, Any] | None = None
    kernel: dict[str, Any] | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    # Instructions per call under callgrind (``callbench count``): raw pairs and how
    # they were taken; see callbench.records.count for what is derived from it.
    count: dict[str, Any] | None = None
    # Contract 5: the row served at a rate (callbench serve-rate): the bound, every rate
    # point's figures, the rate found; see harness/load/serving.py.
    serving: dict[str, Any] | None = None
    schema: int = SCHEMA_VERSION
    # Where the record was read from (not stored): latencies are found beside it.
    path: Path | None = field(default=None, compare=False, repr=False)

    # ------------------------------------------------------------- samples

    def counted(self) -> list[Round]:
        """The rounds that count: the unflagged ones, or all when every round was flagged."""
        clean = [r for r in self.rounds if r.flagged is None]
        return clean or list(self.rounds)

    @property
    def samples(self) -> list[float]:
        """Per-call ns of each counted round, in round order."""
        return [r.per_call_ns for r in self.counted()]

    def by_round(self) -> dict[int, float]:
        """Round index -> per-call ns (the last counted run of that index)."""
        return {r.index: r.per_call_ns for r in self.counted()}

    @property
    def ok(self) -> bool:
        return self.status == "ok" and bool(self.rounds)

    # ---------------------------------------------------------- statistics

    @property
    def median_ns(self) -> float:
        return stats.median(self.samples)

    @property
    def interval_ns(self) -> stats.Interval:
        return stats.median_interval(self.samples)

    @property
    def wide(self) -> bool:
        return stats.wide(self.samples)

    @property
    def cores_busy(self) -> float | None:
        """The cores the callers kept busy: their CPU time over the round's span, the
        median over counted rounds; None where a round has no CPU time. It counts what the
        kit's clock covers: the callers' threads (a runtime's own pool threads only where
        the kit's clock is the process's), Node.js's whole process."""
        busy = [r.cpu_ns / r.ns for r in self.counted() if r.cpu_ns is not None and r.ns > 0]
        return stats.median(busy) if busy and len(busy) == len(self.counted()) else None

    @property
    def flagged_rounds(self) -> int:
        return sum(r.flagged is not None for r in self.rounds)

    def latency_samples(self) -> np.ndarray | None:
        """The per-call latencies in ns, read from the file beside the record."""
        if self.latencies is None or self.path is None:
            return None
        with np.load(self.path.parent / self.latencies, allow_pickle=False) as data:
            return np.asarray(data["ns"])

    # ------------------------------------------------------------- as JSON

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], path: Path | None = None) -> Record:
        values = dict(data)
        values["rounds"] = [Round(**r) for r in values.get("rounds", [])]
        values["schema"] = SCHEMA_VERSION  # an older record read back is written as this one
        return cls(**values, path=path)
