"""``callbench list``: every registered driver, whether it can run here, and if not, why."""

from __future__ import annotations

from callbench.harness.callgrind import unavailable
from callbench.paths import REPO_ROOT
from callbench.registry import DRIVERS


def listing() -> str:
    rows = [f"{'driver':34} {'language':9} {'runtime':18} {'artifact':20} status"]
    for spec in DRIVERS:
        reason = spec.available()
        status = "ready" if reason is None else f"cannot run: {reason}"
        rows.append(f"{spec.id:34} {spec.language:9} {spec.runtime:18} {spec.artifact:20} {status}")
        rows.append(f"{'':34} source: {spec.source.relative_to(REPO_ROOT)}")
    reason = unavailable()
    rows.append("")
    rows.append(
        "callbench count (instructions per call under callgrind): "
        + (f"unavailable: {reason}" if reason else "available")
    )
    return "\n".join(rows)
