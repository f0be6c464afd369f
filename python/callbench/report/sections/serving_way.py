"""How a served row's requests were taken: one caller, threads, N processes and their deal,
or one caller through its kit's dynamic batcher (contract 7)."""

from __future__ import annotations

from callbench.records.record import Record

# The most sizes a row's way lists one by one; past them, the calls of the largest size taken
# and the others summed over their range (a batcher near its capacity takes dozens of sizes).
SIZES_LISTED = 3


def way(r: Record) -> str:
    """How a row's callers ran: threads of one process, N copies and how they were dealt
    the arrivals (dealing.py), or one caller through its kit's batcher (B, D, and the calls by
    the arrivals they took at the last point)."""
    if batcher := (r.serving or {}).get("batcher"):
        took = calls_taken((r.serving or {}).get("points", [{}])[-1].get("batch_sizes") or [])
        gathered = ", gathered" if batcher.get("gathered") else ""
        return (f"batcher B {batcher['batch']}, D {batcher['max_delay_us']} µs{gathered}"
                + (f" (last point's calls: {took})" if took else ""))  # fmt: skip
    if r.processes > 1:
        deal = (r.serving or {}).get("deal")
        return f"{r.processes} processes" + (f", {deal}" if deal else "")
    if r.threads > 1:  # bench's serving phase: one caller of T intra-op threads
        return f"one caller, {r.threads} intra-op threads"
    return "threads" if r.callers > 1 else "one caller"


def calls_taken(sizes: list[int]) -> str:
    """``sizes[k - 1]`` calls took k arrivals: "n of k" for each size taken, or past
    SIZES_LISTED sizes, the largest's and the rest's sum over their range."""
    taken = [(k, n) for k, n in enumerate(sizes, 1) if n]
    if len(taken) <= SIZES_LISTED:
        return ", ".join(f"{n:,} of {k}" for k, n in taken)
    *fewer, (largest, at_largest) = taken
    return (f"{at_largest:,} of {largest}, {sum(n for _, n in fewer):,} of "
            f"{fewer[0][0]}–{fewer[-1][0]}")  # fmt: skip
