"""Statistics derived from raw samples; records keep the samples, never rounded figures."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

# Repeats whose spread (max - min) exceeds this fraction of the median are flagged.
SPREAD_LIMIT = 0.10
# Per-call timestamps say something only when a call costs at least this much.
LATENCY_FLOOR_NS = 1000.0


def median(samples: Sequence[float]) -> float:
    return float(statistics.median(samples))


def spread(samples: Sequence[float]) -> float:
    """(max - min) / median: 0 for one sample."""
    if len(samples) < 2:
        return 0.0
    return (max(samples) - min(samples)) / median(samples)


def noisy(samples: Sequence[float]) -> bool:
    return spread(samples) > SPREAD_LIMIT


def percentiles(latencies_ns: np.ndarray) -> dict[str, float] | None:
    """p50/p90/p99 of per-call durations, or None where a call is too short to time."""
    if latencies_ns.size == 0:
        return None
    p50, p90, p99 = np.percentile(latencies_ns, [50, 90, 99])
    if p50 < LATENCY_FLOOR_NS:
        return None
    return {"p50": float(p50), "p90": float(p90), "p99": float(p99)}
