"""Statistics derived from raw samples; records keep the samples, never a rounded figure.

Intervals are distribution-free (order statistics, scipy's ``quantile_test``)
where samples are few and paired, and bootstrapped where two runs are compared.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import numpy as np
from scipy import stats as scipy_stats

CONFIDENCE = 0.95
# A median whose interval is wider than this fraction of it is flagged (⚠).
WIDE_INTERVAL = 0.10
# Per-call timestamps say something only when a call costs at least this much.
LATENCY_FLOOR_NS = 1000.0

Interval = tuple[float, float]


def median(samples: Sequence[float]) -> float:
    return float(statistics.median(samples))


def median_interval(samples: Sequence[float]) -> Interval:
    """A 95% interval for the median; (min, max) when there are too few samples for one."""
    if len(samples) < 2:
        value = float(samples[0]) if samples else math.nan
        return value, value
    ci = scipy_stats.quantile_test(np.asarray(samples, dtype=float), p=0.5).confidence_interval(
        CONFIDENCE
    )
    low, high = float(ci.low), float(ci.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        return float(min(samples)), float(max(samples))
    return low, high


def relative_width(samples: Sequence[float]) -> float:
    """(high - low) / median of the median's interval."""
    low, high = median_interval(samples)
    mid = median(samples)
    return (high - low) / mid if mid else math.inf


def wide(samples: Sequence[float]) -> bool:
    return relative_width(samples) > WIDE_INTERVAL


def spread(samples: Sequence[float]) -> float:
    """(max - min) / median: 0 for one sample."""
    if len(samples) < 2:
        return 0.0
    return (max(samples) - min(samples)) / median(samples)


def paired_ratio(a: Sequence[float], b: Sequence[float]) -> tuple[float, Interval]:
    """Median of a_i / b_i over rounds timed together, with its interval."""
    ratios = [x / y for x, y in zip(a, b, strict=True)]
    return median(ratios), median_interval(ratios)


def ratio_of_medians(
    a: Sequence[float], b: Sequence[float], seed: int = 0
) -> tuple[float, Interval]:
    """median(b) / median(a) for samples from two runs, with a bootstrap interval."""
    value = median(b) / median(a)
    if len(a) < 2 or len(b) < 2:  # one round is no interval: nothing it could exclude
        return value, (0.0, math.inf)
    result = scipy_stats.bootstrap(
        (np.asarray(a, dtype=float), np.asarray(b, dtype=float)),
        lambda x, y, axis=-1: np.median(y, axis=axis) / np.median(x, axis=axis),
        vectorized=True,
        paired=False,
        confidence_level=CONFIDENCE,
        n_resamples=2000,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    ci = result.confidence_interval
    return value, (float(ci.low), float(ci.high))


def overlaps(a: Interval, b: Interval) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def percentiles(latencies_ns: np.ndarray, points: Sequence[float] = (50, 90, 99)) -> list[float]:
    """Percentiles of per-call durations, recomputable for any point from the raw samples."""
    return [float(v) for v in np.percentile(latencies_ns, list(points))]
