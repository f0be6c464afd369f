"""Turn kernels into records: time, verify, then write each one into the run folder."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from callbench.errors import named_first_line
from callbench.kernels.kernel import Item, Kernel, NotRun
from callbench.kernels.record import make_record
from callbench.kernels.timing import measure
from callbench.records.record import Record
from callbench.records.store import write_record


def run_kernel(item: Item, *, threads: int, repeats: int, min_repeat_s: float) -> Record:
    """The record of one kernel: timed and checked, or skipped / failed with the reason."""
    if isinstance(item, NotRun):
        return make_record(item.labels, threads=threads, status=item.status, error=item.reason)
    assert isinstance(item, Kernel)
    try:
        m = measure(
            item.call,
            repeats=repeats,
            warmup=item.warmup,
            min_repeat_s=min_repeat_s,
            sync=item.sync,
        )
        error = item.error_of(m.last)
    except Exception as exc:  # a kernel that raises is a failed record, not a crash
        return make_record(
            item.labels, threads=threads, status="failed", error=named_first_line(exc)
        )
    ok = error <= item.tolerance
    return make_record(
        item.labels,
        threads=threads,
        status="ok" if ok else "failed",
        error=None if ok else f"max abs error {error:.3g} exceeds tolerance {item.tolerance:.3g}",
        measurement=m,
        max_abs_error=error,
        tolerance=item.tolerance,
    )


def run_all(
    items: Iterable[Item],
    *,
    threads: int,
    repeats: int,
    min_repeat_s: float,
    run_dir: Path | None = None,
    progress: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Run every kernel in turn; write ``<run_dir>/<id>.json`` for each when given a folder.

    Items are consumed one by one so a family can free each operation's arrays.
    ``write_record`` checks each record against the schema (RecordError if not).
    """
    records: list[Record] = []
    for item in items:
        record = run_kernel(item, threads=threads, repeats=repeats, min_repeat_s=min_repeat_s)
        del item  # drop the kernel's closures (inputs, outputs) before the next one
        if run_dir is not None:
            write_record(run_dir, record)
        records.append(record)
        if progress is not None:
            progress(record)
    return records
