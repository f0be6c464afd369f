"""The per-call tables: every driver of a run, and several hosts side by side.

Every figure is derived from the records' raw rounds: medians and their 95%
intervals (``Record.interval_ns``), ratios round by round (``ratios``), and
percentiles from the latency samples kept beside each record.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.model.artifacts import TORCHSCRIPT
from callbench.records import count as derive
from callbench.records import stats
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.registry import the_floor
from callbench.report.blocks import claims
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import ratio

# The hand-written loop marked floor(...) in the registry.
FLOOR = the_floor()
TIE = "≈"
WIDE = "⚠"
# PyTorch deprecated TorchScript in favour of torch.export as of torch 2.11
# (its maintainers, citing the 2.11 release notes, on pytorch/pytorch#41683);
# the torch 2.15 pinned here warns on torch.jit.load.
TORCHSCRIPT_DEPRECATED = "TorchScript, deprecated since torch 2.11"
TORCHSCRIPT_NOTE = (
    f"TorchScript rows load `{TORCHSCRIPT}`. PyTorch deprecated TorchScript in favour of "
    '`torch.export` as of torch 2.11, and its documentation says "TorchScript is deprecated, '
    'please use torch.export instead"; in the torch 2.15 pinned here `torch.jit.load` warns '
    '"torch.jit.load is deprecated. Please switch to torch.export."'
)


def ordered(records: Sequence[Record]) -> list[Record]:
    """Verified records by median cost, then failed and skipped ones by id."""
    ok = sorted((r for r in records if r.ok), key=lambda r: r.median_ns)
    rest = sorted((r for r in records if not r.ok), key=lambda r: r.id)
    return [*ok, *rest]


def base_record(records: Sequence[Record]) -> Record | None:
    """What ratios are taken against: the floor (a hand-written loop), else the fastest row."""
    ok = [r for r in records if r.ok]
    floor = next((r for r in ok if r.id == FLOOR), None)
    return floor or (min(ok, key=lambda r: r.median_ns) if ok else None)


def runtime_cell(record: Record) -> str:
    """Runtime and version, without saying the runtime twice when the version names it."""
    runtime, version = record.runtime, record.runtime_version or ""
    cell = version if version.startswith(runtime) else f"{runtime} {version}".strip()
    if record.artifact == TORCHSCRIPT:
        cell += f" ({TORCHSCRIPT_DEPRECATED})"
    return cell


def status_cell(record: Record) -> str:
    if not record.ok:
        return f"**{record.status}**: {fmt.one_line(record.error) or 'no reason given'}"
    if record.flagged_rounds:
        return f"ok, {record.flagged_rounds} flagged round(s) re-run"
    return "ok"


def median_cell(record: Record) -> str:
    return fmt.us(record.median_ns) + (f" {WIDE}" if record.wide else "")


class LatenciesUnreadableError(Exception):
    """The record's latency file cannot be read."""


def latency_percentiles_ns(record: Record) -> list[float] | None:
    """p50, p90, p99 ns from the latency samples; None where a call takes under 1 µs (the
    clock's resolution makes them noise) or no samples were kept."""
    if record.median_ns < stats.LATENCY_FLOOR_NS:
        return None
    try:
        samples = record.latency_samples()
    except (OSError, ValueError, KeyError) as exc:
        raise LatenciesUnreadableError(str(record.latencies)) from exc
    if samples is None or not samples.size:
        return None
    return stats.percentiles(samples)


def latency_cell(record: Record) -> str:
    """p50 / p90 / p99 µs, recomputed from the latency samples, where a call takes >= 1 µs."""
    try:
        found = latency_percentiles_ns(record)
    except LatenciesUnreadableError:
        return f"{record.latencies}: unreadable"
    return fmt.NOT_SHOWN if found is None else " / ".join(fmt.us(v) for v in found)


def peak_cell(record: Record) -> str:
    """Peak MB of the driver's process; the JVM's host (CPython + JPype) share apart."""
    if record.peak_rss_bytes is None:
        return fmt.NOT_SHOWN
    cell = fmt.megabytes(record.peak_rss_bytes)
    host = record.notes.get("host_rss_bytes")
    if isinstance(host, int | float) and not isinstance(host, bool):
        cell += f" (host {fmt.megabytes(host)})"
    return cell


def rank_cell(n: int, placed: claims.Placed) -> str:
    """The row's place, or ``≈`` where nothing may be claimed against the row above on wall time."""
    return str(n + 1) if placed.axis in ("first", "wall time") else TIE


def order_cell(placed: claims.Placed, above: Record | None) -> str:
    """The row against the one above: a claim on wall time, or a tie and what the
    instructions per call say (this row's over the row above's)."""
    versus = placed.versus_above
    if placed.axis == "first" or versus is None or above is None:
        return fmt.NOT_SHOWN
    if placed.axis == "wall time":
        return f"wall time, ×{fmt.times(versus.value)}"
    mine, theirs = claims.instructions(placed.record), claims.instructions(above)
    if mine is None and theirs is None:
        return "a tie on wall time"
    if mine is None:
        return "a tie on wall time; this row not counted"
    if theirs is None:
        return "a tie on wall time; the row above not counted"
    if claims.differ(theirs, mine):
        return f"a tie on wall time; instructions ×{fmt.times(mine / theirs)}"
    return "a tie on both axes"


def count_cells(record: Record, cycles: bool) -> list[str]:
    """Instructions per call (and estimated cycles) of the record's ok count."""
    block = record.count
    figures = derive.summary(block) if block and block.get("status") == "ok" else {}
    found = [figures.get("instructions_per_call")] + ([figures.get("est_cycles_per_call")]
                                                      if cycles else [])  # fmt: skip
    return [fmt.NOT_SHOWN if v is None else f"{v:,.0f}" for v in found]


# What a driver id's suffix says about its call, and the independent rows.
GLOSSARY = """A driver's id is its language, its runtime, then how it calls:

- no suffix: the runtime's plain documented call, new tensors each call;
- `-reuse`: input and output tensors (or buffers) made once and refilled each call;
- `-iobinding`: ONNX Runtime's IO binding, inputs and outputs bound to the session once;
- `-static`: OpenVINO with the model reshaped to the run's batch (static shapes);
- `-method`: ExecuTorch's `Method` called directly, without the `Module` wrapper;
- `-portable`: ExecuTorch's portable kernels, not XNNPACK;
- `-out`: LibTorch's `out=` operators, writing into tensors made once;
- `-loader`: AOTInductor's loader called directly, skipping the pytree round trip;
- `-state`: tract's `SimpleState` made once and reused;
- `-frozen`: a frozen TorchScript module; `-inference`: eager under `torch.inference_mode`;
- `-invoke`: IREE's lowest-level function invocation; `-ffm`: the C API through Java's
  FFM API, not JNI; `-web`: onnxruntime-web's WebAssembly build;
- `-seed`: the seed study's loop exactly as its author wrote it; `-loop`: the whole loop
  in Cython, the floor's neighbour;
- `independent-*`: a plain caller written apart from the drivers' kit, sharing only
  the files: the drivers' harness should cost nothing beside it."""


CALL_CELL = 60  # characters of the record's notes.call kept in the main table


def call_cell(record: Record) -> str:
    """What the call does, from the driver's own ``notes.call``, shortened."""
    call = fmt.one_line(str(record.notes.get("call") or "")) or fmt.NOT_SHOWN
    return call if len(call) <= CALL_CELL else call[: CALL_CELL - 1].rstrip() + "…"


def driver_table(records: Sequence[Record]) -> str:
    """The main table, nine columns: the ranking and what to read it by. The rest of each
    row's figures are in ``details_table``."""
    placed = claims.table_order(records)
    rest = [r for r in ordered(records) if not r.ok]
    base = base_record(records)
    counted = any(r.count is not None for r in records)
    rows = []
    for n, r in enumerate([p.record for p in placed] + rest):
        if r.ok:
            versus = ratio(r, base) if base is not None else None
            figures = [f"{fmt.us(r.median_ns)} ({fmt.us_interval(r.interval_ns)})"
                       + (f" {WIDE}" if r.wide else ""),
                       str(versus) if versus else fmt.NOT_SHOWN]  # fmt: skip
        else:
            figures = [fmt.NOT_SHOWN] * 2
        works = count_cells(r, False) if counted else []
        above = placed[n - 1].record if 0 < n < len(placed) else None
        order = [order_cell(placed[n], above)] if n < len(placed) else [fmt.NOT_SHOWN]
        rows.append([
            rank_cell(n, placed[n]) if n < len(placed) else fmt.NOT_SHOWN,
            f"`{r.id}`", runtime_cell(r), call_cell(r), *figures, *works, *order,
            status_cell(r),
        ])  # fmt: skip
    header = [
        "rank", "driver", "runtime", "the call", "median µs/call (95% interval)",
        f"× {base.id if base else FLOOR} (95% interval)",
        *(["instructions / call"] if counted else []),
        "against the row above", "status",
    ]  # fmt: skip
    table = fmt.table(header, rows) + "\n\n" + GLOSSARY
    if any(r.artifact == TORCHSCRIPT for r in records):
        table += "\n\n" + TORCHSCRIPT_NOTE
    return table


def warmup_cell(r: Record) -> str:
    """The warm-up's calls and seconds (a torch.compile row compiles here); a record from
    before the warm-up was timed holds the calls asked for alone."""
    if r.warmup_ns is None:
        return f"{r.warmup:,}" if r.ok else fmt.NOT_SHOWN
    return f"{r.warmup:,} ({r.warmup_ns / 1e9:.2f})"


def details_table(records: Sequence[Record]) -> str:
    """Each row's other figures: latency percentiles, load, memory, error, cycles."""
    counted = any(r.count is not None for r in records)
    cycles = any(count_cells(r, True)[-1] != fmt.NOT_SHOWN for r in records) if counted else False
    rows = []
    for r in ordered(records):
        rows.append([
            f"`{r.id}`", r.language,
            latency_cell(r) if r.ok else fmt.NOT_SHOWN,
            f"{r.load_ns / 1e6:.1f}" if r.load_ns is not None else fmt.NOT_SHOWN,
            warmup_cell(r),
            peak_cell(r),
            f"{r.max_abs_error:.1e}" if r.max_abs_error is not None else fmt.NOT_SHOWN,
            *(count_cells(r, True)[-1:] if cycles else []),
        ])  # fmt: skip
    header = ["driver", "language", "p50 / p90 / p99 µs", "load ms", "warm-up calls (s)",
              "peak MB", "max abs err",
              *(["est. cycles / call"] if cycles else [])]  # fmt: skip
    return fmt.table(header, rows)


def column(run: Run) -> str:
    """A run's heading: host and CPU, and its run id, since cloud hosts share names."""
    return f"{run.host} · {run.env.get('cpu', '?')} · `{run.name}`"


def hosts_table(runs: Sequence[Run]) -> str:
    """Drivers side by side by host: median µs per call and the ratio to the run's base; only
    the drivers verified on two hosts or more (the rest are in each host's own sections)."""
    every = sorted({r.id for run in runs for r in run.drivers})
    ids = [i for i in every if sum(bool((r := run.driver(i)) and r.ok) for run in runs) > 1]
    if not ids:
        return "No driver was verified on more than one host."
    bases = [base_record(run.drivers) for run in runs]
    rows = []
    for driver_id in ids:
        row = [f"`{driver_id}`"]
        for run, base in zip(runs, bases, strict=True):
            record = run.driver(driver_id)
            if record is None:
                row.append("not measured")
            elif not record.ok:
                row.append(record.status)
            else:
                versus = ratio(record, base) if base is not None else None
                extra = f" ({fmt.times(versus.value)}× {base.id})" if versus and base else ""
                row.append(median_cell(record) + extra)
        rows.append(row)
    header = ["driver", *(column(run) for run in runs)]
    apart = len(every) - len(ids)
    if not apart:
        return fmt.table(header, rows)
    drivers = "driver" if apart == 1 else "drivers"
    return fmt.table(header, rows) + (
        f"\n\n{apart} other {drivers} ran on one host only: see that host's sections."
    )
