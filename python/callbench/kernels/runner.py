"""Turn kernels into records: time, verify, validate, write one JSON per kernel."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from callbench.kernels.kernel import Item, Kernel, NotRun
from callbench.kernels.record import make_record, validate_kernel
from callbench.kernels.timing import measure
from callbench.records import write_json


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def run_kernel(item: Item, *, threads: int, repeats: int, min_repeat_s: float) -> dict[str, Any]:
    """The record of one kernel: timed and checked, or skipped / failed with the reason."""
    if isinstance(item, NotRun):
        return make_record(
            item.labels, threads=threads, repeats=repeats, status=item.status, error=item.reason
        )
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
            item.labels, threads=threads, repeats=repeats, status="failed", error=_one_line(exc)
        )
    ok = error <= item.tolerance
    return make_record(
        item.labels,
        threads=threads,
        repeats=repeats,
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
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every kernel in turn; write ``<run_dir>/<id>.json`` for each when given a folder.

    Items are consumed one by one so a family can free each operation's arrays.
    """
    records: list[dict[str, Any]] = []
    for item in items:
        record = run_kernel(item, threads=threads, repeats=repeats, min_repeat_s=min_repeat_s)
        del item  # drop the kernel's closures (inputs, outputs) before the next one
        problems = validate_kernel(record)
        if problems:
            raise ValueError(f"invalid record for {record['driver']}: {'; '.join(problems)}")
        if run_dir is not None:
            write_json(run_dir / f"{record['driver']}.json", record)
        records.append(record)
        if progress is not None:
            progress(record)
    return records
