"""What a run's contention probes say: ``Round.probe_ns`` and ``probe_after_ns``, timed by
harness/contention_probe.py.

The probes before and after rounds are read as two series, each probe against
the median of its own: records from before the probe warmed its table first
have the one after a round finding it partly evicted by the driver.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# A probe this far above the median of its series ran on a contended core: the
# round beside it is flagged, and a run whose 90th percentile is past it was noisy.
SLOW = 0.10
FEWEST = 10


def ratios(*series: Sequence[int]) -> list[float]:
    """Every probe over the median of its own series."""
    out: list[float] = []
    for probes in series:
        if probes:
            mid = float(np.median(probes))
            out += [p / mid for p in probes]
    return out


def spread(*series: Sequence[int]) -> dict[str, float] | None:
    """10th and 90th percentiles of the probes over their series' medians: 1.0 on a steady core."""
    found = ratios(*series)
    if len(found) < FEWEST:
        return None
    low, high = np.percentile(np.asarray(found), [10, 90])
    return {"count": len(found), "p10": float(low), "p90": float(high)}


def describe(before: Sequence[int], after: Sequence[int] = ()) -> str:
    """One line on the core's contention over a group's rounds, for the console and the report."""
    found = spread(before, after)
    if found is None:
        return "contention probe: too few rounds to say"
    if before and after:
        where = "before and after each round"
        centre = (
            f"medians {np.median(before) / 1e6:.2f} ms before, "
            f"{np.median(after) / 1e6:.2f} ms after; probes x{found['p10']:.2f} to "
            f"x{found['p90']:.2f} of their median"
        )
    else:
        where = "before each round" if before else "after each round"
        centre = (
            f"{np.median(list(before) or list(after)) / 1e6:.2f} ms median, "
            f"x{found['p10']:.2f} to x{found['p90']:.2f} of it"
        )
    line = (
        f"contention probe (a fixed 1 MiB gather on the drivers' core, {where}): {centre} "
        f"(10th to 90th percentile, {found['count']} probes)"
    )
    if found["p90"] > 1 + SLOW:
        line += (
            "; a noisy machine: something the round flags cannot see (a tenant of the host "
            "sharing the core's caches, for one) slowed the core, so wide (⚠) rows are the "
            "machine's noise as much as the drivers'"
        )
    return line
