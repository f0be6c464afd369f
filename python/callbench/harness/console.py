"""What the user sees while a run goes: one line per step, and a summary table at the end."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from callbench.records.record import Record


def say(text: str) -> None:
    print(text, flush=True)


def note(text: str) -> None:
    """A transient progress line: rewritten in place on a terminal, skipped in a log."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{text}")
        sys.stderr.flush()


def clear() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def us(ns: float) -> str:
    value = ns / 1e3
    return f"{value:.0f}" if value >= 100 else f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def figure(record: Record) -> str:
    if not record.ok:
        return f"{record.status}: {record.error}"
    low, high = record.interval_ns
    warn = " ⚠" if record.wide else ""
    return f"{us(record.median_ns)} µs/call [{us(low)}–{us(high)}]{warn}"


def label(record: Record) -> str:
    """The driver's id, and the sweep point it ran at (``python-numpy width=512``)."""
    sweep = record.sweep
    if not sweep:
        return record.id
    width = f" width={sweep['width']}" if sweep.get("width") else ""
    return f"{record.id} {sweep['kind']}={sweep['value']}{width}"


def summary(records: Sequence[Record]) -> str:
    wide = max([34, *(len(label(r)) for r in records)])
    rows = [f"{'driver':{wide}} {'status':8} {'µs/call':>10} {'95% interval':>19}  note"]
    ranked = sorted(
        records,
        key=lambda r: (
            (r.sweep or {}).get("kind", ""), (r.sweep or {}).get("value", 0),
            not r.ok, r.median_ns if r.ok else 0.0, r.id,
        ),
    )  # fmt: skip
    for r in ranked:
        if r.ok:
            low, high = r.interval_ns
            med, span = f"{us(r.median_ns):>10}", f"{us(low)}–{us(high)}"
            notes = []
            if r.wide:
                notes.append("interval wider than 10%")
            if r.flagged_rounds:
                notes.append(f"{r.flagged_rounds} round(s) re-run")
            note_text = ", ".join(notes)
        else:
            med, span, note_text = f"{'-':>10}", "", r.error or ""
        rows.append(f"{label(r):{wide}} {r.status:8} {med} {span:>19}  {note_text}")
    return "\n".join(rows)
