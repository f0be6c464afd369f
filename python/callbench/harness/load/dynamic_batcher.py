"""Contract 7's dynamic batcher at a rate: a row served by its kit's batcher, up to B arrivals
a call, the oldest it holds waiting at most D (``serve-rate --batcher B,B --max-delay D,D``).

A service's batcher is a configuration, not code in each model (Triton's ``dynamic_batching``
with ``max_batch_size`` and ``max_queue_delay_microseconds``): here it is the kit's, and each
(B, D) is a point of its own beside the row's batch-1 callers, searched under the same bound
and rules. The driver is loaded at batch B; its closed loop then calls B samples a call, and
the batcher's own, a burst of arrivals drained B a call (batcher_drain.py), is the most
arrivals a second it serves (the curve's shares are of it). Each call runs at B, the places
no arrival took padded; the record counts the calls by the arrivals they took and the
padding that leaves. A row whose runtime takes a changing batch (``roles.GATHERED``) is
served a second way beside it at each (B, D): each call at the size it gathered
(``--gathered``), as such a service runs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from callbench.languages.spec import DriverSpec
from callbench.roles import GATHERED as GATHERED_ROLE

# serve-rate's --max-delay unless given: a fifth of our MLP's 1 ms bound.
MAX_DELAY_US = 200
# What the record says of the call's size.
PADDED = "each call at B, the places no arrival took padded (a fixed-shape call pays for them)"
GATHERED = "each call at the size it gathered (the runtime takes a changing batch)"


@dataclass(frozen=True)
class Batcher:
    """One batcher: up to ``batch`` arrivals a call, the oldest waiting at most
    ``max_delay_us``."""

    batch: int
    max_delay_us: int
    gathered: bool = False  # each call at the size it gathered, not padded to B

    @property
    def label(self) -> str:
        return f"batcher B {self.batch} D {self.max_delay_us} us" + (
            " gathered" if self.gathered else "")  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        call = GATHERED if self.gathered else PADDED
        return {"batch": self.batch, "max_delay_us": self.max_delay_us,
                "gathered": self.gathered, "call": call}  # fmt: skip


def batchers(batches: Sequence[int], delays_us: Sequence[int]) -> list[Batcher]:
    """Each (B, D) of the lists, B first."""
    return [Batcher(b, d) for b, d in itertools.product(batches, delays_us)]


def ways(spec: DriverSpec, batcher: Batcher) -> list[Batcher]:
    """``batcher`` as ``spec`` is served through it: padded, and gathered beside it where its
    runtime takes a changing batch."""
    if GATHERED_ROLE in spec.roles:
        return [batcher, replace(batcher, gathered=True)]
    return [batcher]


def padding(sizes: Sequence[int]) -> int:
    """The places the calls padded: ``sizes[k - 1]`` calls of k arrivals, each call of
    ``len(sizes)``."""
    batch = len(sizes)
    return sum((batch - k) * n for k, n in enumerate(sizes, 1))
