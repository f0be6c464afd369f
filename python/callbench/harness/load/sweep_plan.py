"""The sweeps a user's model can afford, read from its own batch-1 rows.

Our MLP's sweeps go to a million samples a call; a ResNet-50's call takes 0.1 s here, so
its batch of 10,000 would take 17 minutes a call. From the slowest sweeping row's median
at batch 1, a batch point is run only while its estimated call (batch x that median: an
upper bound, batching only makes a sample cheaper) stays within CALL_BUDGET_S and the
inputs hold its samples; the thread sweep runs at the largest batch that fits the same
limits (a large model's call splits across threads even at batch 1). Each runtime's
fastest row sweeps, each as far as its own call allows; each skipped point says why, once.

That estimate is a guess until a point has run: a sample can cost more in a larger batch
(tract's ResNet-50 took 1.5 s a call at batch 10, 2.4x its batch-1 cost a sample, and 6.9 s
at 32), so each point that ran sets the estimate of the next (``Measured``): the dearest
sample seen so far. A point of calls of about c seconds runs ``rounds_within(c)`` rounds:
all the run's while they take at most POINT_BUDGET_S, fewer (at least MIN_ROUNDS) past it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbench.harness.run import THREAD_SWEEP_BATCH
from callbench.records.record import Record
from callbench.runtimes import engine

# A sweep point's call may take at most this long (its rounds then take a few seconds each).
CALL_BUDGET_S = 2.0
# A user's model's batch points: denser than our MLP's, since a large model stops early.
BATCHES = (1, 10, 100, 1000, 10_000, 100_000)
# A user's model's sweep point: its rounds take about this long, or MIN_ROUNDS rounds.
POINT_BUDGET_S = 10.0
MIN_ROUNDS = 5


def rounds_within(call_s: float, most: int, budget_s: float = POINT_BUDGET_S) -> int:
    """Rounds of calls of about ``call_s``: ``most``, fewer (at least MIN_ROUNDS) where
    they would take longer than ``budget_s``."""
    fit = int(budget_s / call_s) if call_s > 0 else most
    return max(min(MIN_ROUNDS, most), min(most, fit))


@dataclass
class Measured:
    """The dearest sample a row's sweep has timed so far, in seconds: a point's call is
    estimated as its batch times that."""

    per_sample_s: float

    def call_s(self, batch: int) -> float:
        return batch * self.per_sample_s

    def saw(self, records: Sequence[Record]) -> None:
        for r in records:
            if r.ok:
                self.per_sample_s = max(self.per_sample_s, r.median_ns / 1e9 / r.batch)

    def fits(self, batch: int) -> bool:
        return self.call_s(batch) <= CALL_BUDGET_S

    def thread_batch(self, planned: int) -> int:
        """The thread sweep's batch: the plan's, within the budget at the dearest sample."""
        return max(1, min(planned, int(CALL_BUDGET_S / self.per_sample_s)))


@dataclass(frozen=True)
class SweepPlan:
    batches: list[int]
    thread_batch: int
    skipped: list[str]  # one line a skipped point


def sweepers(records: Sequence[Record]) -> list[Record]:
    """The fastest verified batch-1 row of each runtime: a large model's cost is the
    runtime's and its threads', the same from every binding (see runtimes.py)."""
    fastest: dict[str, Record] = {}
    for r in records:
        key = engine(r.runtime)
        if (
            r.ok
            and r.sweep is None
            and (key not in fastest or r.median_ns < fastest[key].median_ns)
        ):
            fastest[key] = r
    return sorted(fastest.values(), key=lambda r: r.median_ns)


def plan(
    rows: Sequence[Record], samples: int, fixed_batch: int | None = None,
    points: Sequence[int] = BATCHES,
) -> SweepPlan:  # fmt: skip
    """The batch points (of ``points``), the thread sweep's batch and what was left out, from
    ``rows`` (the sweeping drivers' verified batch-1 records) and the samples the inputs
    hold."""
    if fixed_batch is not None:
        return SweepPlan([], fixed_batch, [f"batch: the model takes batches of {fixed_batch} only"])
    call_s = max(r.median_ns for r in rows) / 1e9 if rows else 0.0
    fits = int(CALL_BUDGET_S / call_s) if call_s > 0 else samples
    batches, skipped = [], []
    for b in points:
        if b > samples:
            skipped.append(f"batch {b:,}: needs {b:,} samples a call; the inputs hold {samples:,}")
        elif b > max(1, fits):
            skipped.append(
                f"batch {b:,}: a call would take up to {b * call_s:.3g} s ({b:,} x "
                f"{call_s:.3g} s at batch 1), past the {CALL_BUDGET_S:g} s budget"
            )
        else:
            batches.append(b)
    return SweepPlan(batches, max(1, min(THREAD_SWEEP_BATCH, samples, fits)), skipped)
