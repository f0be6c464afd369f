"""What a run's contention probes say: ``Round.probe_ns`` and ``probe_after_ns``, timed by
harness/contention_probe.py."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# A probe this far above the median probe ran on a contended core: the round
# beside it is flagged, and a run whose 90th percentile probe is past it was noisy.
SLOW = 0.10


def spread(probes: Sequence[int]) -> dict[str, float] | None:
    """The probe's 10th and 90th percentiles over its median: (1.0, 1.0) on a steady core."""
    if len(probes) < 10:
        return None
    low, mid, high = np.percentile(np.asarray(probes, dtype=float), [10, 50, 90])
    return {"count": len(probes), "median_ns": float(mid), "p10": low / mid, "p90": high / mid}


def describe(probes: Sequence[int]) -> str:
    """One line on the core's contention over a group's rounds, for the console and the report."""
    found = spread(probes)
    if found is None:
        return "contention probe: too few rounds to say"
    line = (
        "contention probe (a fixed 1 MiB gather on the drivers' core, before and after each "
        f"round): "
        f"{found['median_ns'] / 1e6:.2f} ms median, x{found['p10']:.2f} to x{found['p90']:.2f} "
        f"of it (10th to 90th percentile, {found['count']} probes)"
    )
    if found["p90"] > 1 + SLOW:
        line += (
            "; a noisy machine: something the round flags cannot see (a tenant of the host "
            "sharing the core's caches, for one) slowed the core, so wide (⚠) rows are the "
            "machine's noise as much as the drivers'"
        )
    return line
