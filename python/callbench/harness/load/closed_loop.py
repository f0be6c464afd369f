"""A served row's closed loop at its callers, before its rate points: rounds of about ROUND_S
(into the record), then one latency pass; its calls a second are the capacity the curve's
shares are of, its p50 and p99 what the report sets beside the paced ones."""

from __future__ import annotations

from typing import Any

import numpy as np

from callbench.harness.launch import Live
from callbench.harness.load import rate_search
from callbench.harness.load.rate_points import ROUND_LIMIT
from callbench.records.record import Round

# Rounds of about ROUND_S each, and a latency pass of at least MIN_CALLS (at most LATENCY_CAP).
CLOSED_ROUNDS = 5
ROUND_S = 0.1
LATENCY_CAP = 100_000


def timed(live: Live, max_calls: int) -> float:
    """The closed loop at the row's callers: rounds of about ROUND_S (into the record), then
    its latency pass; its calls a second (the curve's capacity)."""
    process = live.process
    assert process is not None
    callers = live.record.callers

    def closed_round(k: int) -> dict[str, Any]:
        process.send(f"round {k}")
        live.sent_rounds += 1
        return process.event("round", ROUND_LIMIT)

    first = closed_round(min(100, max_calls))
    per_call = first["ns"] / first["calls"]  # one caller's time per call, N at once
    k = max(1, min(max_calls, int(ROUND_S * 1e9 / max(per_call, 1.0))))
    for index in range(CLOSED_ROUNDS):
        answer = closed_round(k)
        live.record.rounds.append(Round(index, k, int(answer["ns"]), answer.get("cpu_ns"),
                                        callers=callers,
                                        caller_ns=answer.get("caller_ns")))  # fmt: skip
    capacity = 1e9 / float(np.median([r.per_call_ns for r in live.record.rounds]))
    latency_calls = min(max_calls, LATENCY_CAP, max(k, -(-rate_search.MIN_CALLS // callers)))
    process.send(f"latencies {latency_calls}")
    process.event("latencies", ROUND_LIMIT)
    live.latencies = np.fromfile(live.workdir / "latencies.i64", dtype="<i8")
    return capacity
