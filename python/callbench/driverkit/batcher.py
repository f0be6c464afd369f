"""Contract 7's dynamic batcher: a paced round's arrivals gathered into calls of up to B.

A service's batcher (Triton's ``dynamic_batching``, TorchServe's ``batch_size`` and
``max_batch_delay``, Ray Serve's ``@serve.batch``) queues requests; a free worker takes what
has arrived, up to B, and with fewer than B waits until B have arrived or the oldest it holds
has waited D. At a low rate it calls with one request, D later; near capacity it calls with
more, at a rate batch-1 calls cannot serve. The driver is loaded at batch B (``--batch``) and
D is ``--max-delay`` (µs). Arrival j takes sample j mod S (S: the samples the run's arrays
hold, ``--calls`` x B) and its outputs go to sample slot j mod S; the call runs at B, the
places no arrival took padded with what they held (valid samples: a fixed-shape runtime pays
for its padding, as it would in a service), or with ``--gathered`` at the size it gathered
(the model's ``gathered`` call: a runtime that takes a changing batch). Each arrival keeps
the three times of contract 6: taken (when the batcher turned to it: negative when it was
waiting for it), started (its call's start, the gathering of samples included) and ended (the
call's end, the outputs put back included); the answer counts the calls by the arrivals they took.

The batcher knows the schedule, not the future: it waits for an arrival only while the oldest
it holds may still wait, and waits out D when the next arrival comes later, as a service's
batcher that cannot see it does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from callbench.driverkit.model import Arrays, Gathered
from callbench.driverkit.paced import Pacing, wait_until
from callbench.driverkit.rounds import OneCaller, Round, poison
from callbench.driverkit.shared_counter import SharedCounter
from callbench.errors import UsageError

# What --max-delay refuses beside it: the batcher is one gatherer over one schedule.
ONE_GATHERER = "--max-delay takes one caller: the batcher gathers for one"
OWN_SCHEDULE = "a batcher serves its own schedule: paced FILE START COUNTER is not taken with it"


@dataclass
class Batcher:
    """The one caller's rounds, with its paced rounds served by the batcher."""

    one: OneCaller
    inputs: Arrays  # the run's arrays: call 0's B places are the batcher's call
    max_delay_ns: int
    gathered: Gathered | None = None  # --gathered: the model's call of the n gathered
    _served: list[np.ndarray] | None = None  # after a paced round: outputs by sample slot

    def timed_round(self, calls: int) -> Round:
        self._served = None
        return self.one.timed_round(calls)

    def latencies(self, calls: int) -> np.ndarray:
        return self.one.latencies(calls)

    def paced(
        self, offsets: np.ndarray, start_ns: int | None, counter: SharedCounter | None = None
    ) -> Pacing:
        if counter is not None:
            raise UsageError(OWN_SCHEDULE)
        batch, outputs = self.one.batch, self.one.outputs
        samples = len(self.inputs[0])
        pristine = [a.copy() for a in self.inputs]  # the gathering overwrites call 0's places
        served = [np.empty_like(o) for o in outputs]
        poison(served)
        pacing = BatchedPacing(offsets, slots=samples)
        pacing.begin(1, start_ns)
        loop = self.one.loop
        call = self.gathered or (lambda _: loop(0, 1))  # padded: call 0's B places, whatever n
        try:
            pacing.gather(batch, self.max_delay_ns, Places(self.inputs, pristine, outputs, served),
                          call)  # fmt: skip
        finally:
            for now, kept in zip(self.inputs, pristine, strict=True):
                now[:batch] = kept[:batch]  # the closed rounds' call 0 as before
        self._served = served
        return pacing

    def last_outputs(self, calls: int) -> list[np.ndarray]:
        if self._served is not None:  # a paced round's: `calls` sample slots
            return [s[:calls] for s in self._served]
        return self.one.last_outputs(calls)


@dataclass(frozen=True)
class Places:
    """Where a batched call's samples come from and its outputs go."""

    inputs: Arrays  # call 0's first places take the gathered samples
    pristine: Sequence[np.ndarray]  # the samples as read
    outputs: Sequence[np.ndarray]  # call 0's first places hold the call's outputs
    served: Sequence[np.ndarray]  # each arrival's outputs at its sample slot

    def gather(self, slots: list[int]) -> None:
        n = len(slots)
        for place, source in zip(self.inputs, self.pristine, strict=True):
            place[:n] = source[slots]

    def scatter(self, slots: list[int]) -> None:
        n = len(slots)
        for out, into in zip(self.outputs, self.served, strict=True):
            into[slots] = out[:n]


@dataclass
class BatchedPacing(Pacing):
    """A paced round whose arrivals one batcher serves, up to B a call."""

    sizes: list[int] = field(default_factory=list)  # sizes[k - 1]: calls that took k arrivals

    def gather(
        self, batch: int, max_delay_ns: int, places: Places, call: Callable[[int], None]
    ) -> None:
        """Serves every arrival; ``call(n)`` makes one call of the n gathered into call 0's
        first places."""
        offsets, taken, started, ended = self._offsets, self._taken, self._started, self._ended
        start, slots, count, clock = self.start_ns, self.slots, len(offsets), time.monotonic_ns
        self.sizes = [0] * batch
        j, end = 0, start
        while j < count:
            now = clock()
            first = start + offsets[j]
            taken[j] = now - first
            if now < first:
                now = wait_until(first)
            deadline = first + max_delay_ns
            held = j + 1
            while held - j < batch:
                # The next arrival's due time; past the schedule's end, one no wait reaches.
                due = start + offsets[held] if held < count else None
                if due is not None and due <= now:  # already arrived: taken now
                    taken[held] = now - due
                elif due is not None and due <= deadline:  # the oldest may wait for it
                    taken[held] = now - due
                    now = wait_until(due)
                else:  # none before the oldest has waited D: wait that out, then call
                    if now < deadline:
                        wait_until(deadline)
                    break
                held += 1
            which = [i % slots for i in range(j, held)]
            begin = clock()
            places.gather(which)
            call(len(which))
            places.scatter(which)
            end = clock()
            for i in range(j, held):
                due = start + offsets[i]
                started[i], ended[i] = begin - due, end - due
            self.sizes[held - j - 1] += 1
            j = held
        self.ends[0], self.served[0] = end, count

    def answer(self) -> dict[str, Any]:
        """Contract 6's answer and the calls by the arrivals they took (``batch_sizes[k - 1]``:
        the calls of k)."""
        return {**super().answer(), "batch_sizes": self.sizes}
