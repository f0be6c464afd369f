"""Markdown tables for the report, every figure derived from the records' raw samples."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from callbench import stats
from callbench.report.load import Run
from callbench.report.seed import SEED_ROWS, SEED_SOURCE

FLOOR = "cpp-handwritten"
Record = Mapping[str, Any]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def us(ns: float) -> str:
    value = ns / 1e3
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def median_ns(record: Record) -> float | None:
    if record.get("status") != "ok" or not record.get("per_call_ns"):
        return None
    return stats.median(record["per_call_ns"])


def runtime_cell(record: Record) -> str:
    """Runtime and version, without saying the runtime twice when the version names it."""
    runtime, version = str(record.get("runtime") or ""), str(record.get("runtime_version") or "")
    return version if version.startswith(runtime) else f"{runtime} {version}".strip()


def status_cell(record: Record) -> str:
    if record.get("status") != "ok":
        reason = str(record.get("error") or "").replace("|", "/")
        return f"**{record.get('status')}**: {reason}"
    spread = stats.spread(record["per_call_ns"])
    return f"ok, spread {spread:.0%} ⚠" if stats.noisy(record["per_call_ns"]) else "ok"


def ordered(records: Sequence[Record]) -> list[Record]:
    """ok records by median cost, then failed and skipped ones by id."""
    ok = sorted((r for r in records if median_ns(r) is not None), key=lambda r: median_ns(r) or 0)
    rest = sorted((r for r in records if median_ns(r) is None), key=lambda r: str(r["driver"]))
    return [*ok, *rest]


def driver_table(run: Run) -> str:
    by_id = {r["driver"]: r for r in run.drivers}
    floor = median_ns(by_id[FLOOR]) if FLOOR in by_id else None
    rows = []
    for r in ordered(run.drivers):
        med = median_ns(r)
        samples = r.get("per_call_ns") or []
        lat = r.get("latency_ns")
        rows.append([
            f"`{r['driver']}`",
            str(r.get("language", "")),
            runtime_cell(r),
            us(med) if med is not None else "–",
            f"{us(min(samples))}–{us(max(samples))}" if med is not None else "–",
            f"{med * 1e6 / 1e9:.2f}" if med is not None else "–",
            f"{med / floor:.1f}×" if med is not None and floor else "–",
            " / ".join(us(lat[k]) for k in ("p50", "p90", "p99")) if lat else "–",
            f"{r['load_ms']:.1f}" if r.get("load_ms") is not None else "–",
            f"{r['peak_rss_mb']:.0f}" if r.get("peak_rss_mb") is not None else "–",
            f"{r['max_abs_error']:.1e}" if r.get("max_abs_error") is not None else "–",
            status_cell(r),
        ])  # fmt: skip
    header = [
        "driver", "language", "runtime", "median µs/call", "min–max µs", "s per 1M calls",
        f"× {FLOOR}", "p50 / p90 / p99 µs", "load ms", "peak MB", "max abs err", "status",
    ]  # fmt: skip
    return _table(header, rows)


def seed_table(run: Run) -> str:
    by_id = {r["driver"]: r for r in run.drivers}
    base_ours = median_ns(by_id["python-eager"]) if "python-eager" in by_id else None
    rows = []
    for label, seconds, driver in SEED_ROWS:
        med = median_ns(by_id[driver]) if driver in by_id else None
        ours = f"{med * 1e6 / 1e9:.2f} s" if med is not None else "not measured"
        if driver in by_id and med is None:
            ours = f"{by_id[driver]['status']}"
        rows.append([
            label, f"{seconds:.0f} s", f"{124.0 / seconds:.1f}×", f"`{driver}`", ours,
            f"{base_ours / med:.1f}×" if med and base_ours else "–",
        ])  # fmt: skip
    header = ["seed row", "seed, 1M calls", "seed speed-up vs Python", "our driver",
              "ours, 1M calls", "our speed-up vs python-eager"]  # fmt: skip
    note = (
        f"\nSeed: {SEED_SOURCE}. Absolute times belong to each machine; the speed-ups "
        "against the plain Python row are what carry over."
    )
    return _table(header, rows) + "\n" + note


def sweep_table(run: Run, kind: str) -> str:
    """Per driver, cost per sample (batch sweep) or per call (thread sweep) at each value."""
    points = run.sweeps.get(kind, {})
    values = sorted(points)
    drivers = sorted({r["driver"] for recs in points.values() for r in recs})
    cell: dict[tuple[str, int], float | None] = {}
    for value, recs in points.items():
        for r in recs:
            med = median_ns(r)
            per = r["batch"] if kind == "batch" else 1
            cell[(r["driver"], value)] = med / per if med is not None else None
    rows = []
    for d in drivers:
        row = [f"`{d}`"]
        for v in values:
            got = cell.get((d, v))
            row.append(us(got) if got is not None else "–")
        if kind == "batch":
            row.append(_stops_paying(d, values, cell))
        rows.append(row)
    batches = sorted({r["batch"] for recs in points.values() for r in recs})
    unit = "µs per sample" if kind == "batch" else f"µs per call of batch {batches}"
    header = ["driver", *(f"{kind} {v:,}" for v in values)]
    if kind == "batch":
        header.append("batching stops paying at")
    return f"({unit})\n\n" + _table(header, rows)


def _stops_paying(
    driver: str, values: Sequence[int], cell: Mapping[tuple[str, int], float | None]
) -> str:
    """The first batch size after which a 10x larger batch saves less than 10% per sample."""
    known = [(v, cell.get((driver, v))) for v in values]
    known_ok = [(v, c) for v, c in known if c is not None]
    for (v, c), (_, c_next) in itertools.pairwise(known_ok):
        if c_next > 0.9 * c:
            return f"{v:,}"
    return f"beyond {known_ok[-1][0]:,}" if known_ok else "–"


def hosts_table(runs: Sequence[Run]) -> str:
    """Drivers side by side by host: median µs per call and the ratio to the floor."""
    ids = sorted({r["driver"] for run in runs for r in run.drivers})
    rows = []
    for d in ids:
        row = [f"`{d}`"]
        for run in runs:
            by_id = {r["driver"]: r for r in run.drivers}
            med = median_ns(by_id[d]) if d in by_id else None
            floor = median_ns(by_id[FLOOR]) if FLOOR in by_id else None
            if med is None:
                row.append(by_id[d]["status"] if d in by_id else "–")
            else:
                row.append(us(med) + (f" ({med / floor:.1f}×)" if floor else ""))
        rows.append(row)
    header = ["driver", *(f"{run.host} · {run.env.get('cpu', '?')}" for run in runs)]
    return _table(header, rows)


def environment(run: Run) -> str:
    env = run.env
    git = env.get("git", {})
    packages = ", ".join(f"{k} {v}" for k, v in (env.get("packages") or {}).items() if v)
    compilers = env.get("compilers") or {}
    lines = [
        f"- run `{run.name}` on host `{run.host}`",
        f"- CPU: {env.get('cpu', '?')}, {env.get('cores', '?')} cores, "
        f"{env.get('memory_gib', '?')} GiB",
        f"- OS: {env.get('os', '?')}; Python {env.get('python', '?')}",
        f"- compilers: {compilers.get('g++') or '?'}; {compilers.get('cmake') or '?'}",
        f"- Java: {env.get('java') or 'not found'}; Maven: {env.get('maven') or 'not found'}",
        f"- packages: {packages}",
        f"- git commit: `{git.get('commit') or '?'}`"
        + (" (uncommitted changes)" if git.get("dirty") else ""),
        f"- options: {env.get('options', {})}",
    ]
    return "\n".join(lines)
