"""How a served row's requests were taken: one caller, threads, N processes and their deal,
or one caller through its kit's dynamic batcher (contract 7)."""

from __future__ import annotations

from callbench.records.record import Record


def way(r: Record) -> str:
    """How a row's callers ran: threads of one process, N copies and how they were dealt
    the arrivals (dealing.py), or one caller through its kit's batcher (B, D, and the calls by
    the arrivals they took at the last point)."""
    if batcher := (r.serving or {}).get("batcher"):
        sizes = (r.serving or {}).get("points", [{}])[-1].get("batch_sizes") or []
        took = ", ".join(f"{n:,} of {k}" for k, n in enumerate(sizes, 1) if n)
        return (f"batcher B {batcher['batch']}, D {batcher['max_delay_us']} µs"
                + (f" (last point's calls: {took})" if took else ""))  # fmt: skip
    if r.processes > 1:
        deal = (r.serving or {}).get("deal")
        return f"{r.processes} processes" + (f", {deal}" if deal else "")
    return "threads" if r.callers > 1 else "one caller"
