"""Sweep tables: cost per sample against batch size, cost per call against threads."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from callbench.harness.load import sweep_plan
from callbench.records.record import Record
from callbench.report.blocks import format as fmt
from callbench.report.blocks.tables import WIDE

TITLES = {"batch": "Batch-size sweep", "threads": "Thread sweep"}
# A 10x larger batch that saves less than this fraction per sample no longer pays.
STILL_PAYS = 0.10

Cell = tuple[float, bool]  # (ns per sample or per call, interval wider than 10%)


def per_unit_ns(record: Record, kind: str) -> float:
    """ns per sample for the batch sweep, ns per call for the thread sweep."""
    return record.median_ns / (record.batch if kind == "batch" else 1)


def cells(points: Mapping[int, Sequence[Record]], kind: str) -> dict[tuple[str, int], Cell]:
    return {
        (r.id, value): (per_unit_ns(r, kind), r.wide)
        for value, records in points.items()
        for r in records
        if r.ok
    }


def stops_paying(driver: str, values: Sequence[int], known: Mapping[tuple[str, int], Cell]) -> str:
    """The first batch size after which the next one saves less than 10% per sample."""
    measured = [(v, known[(driver, v)][0]) for v in values if (driver, v) in known]
    for (value, cost), (_, next_cost) in itertools.pairwise(measured):
        if next_cost > (1 - STILL_PAYS) * cost:
            return f"{value:,}"
    return f"beyond {measured[-1][0]:,}" if measured else fmt.NOT_SHOWN


def sweep_table(points: Mapping[int, Sequence[Record]], kind: str) -> str:
    """One row per driver, one column per sweep value; failed points say so."""
    values = sorted(points)
    drivers = sorted({r.id for records in points.values() for r in records})
    known = cells(points, kind)
    status = {(r.id, v): r.status for v, records in points.items() for r in records}
    rows = []
    for driver in drivers:
        row = [f"`{driver}`"]
        for value in values:
            if (driver, value) in known:
                ns, wide = known[(driver, value)]
                row.append(fmt.us(ns) + (f" {WIDE}" if wide else ""))
            else:
                row.append(status.get((driver, value), fmt.NOT_SHOWN))
        if kind == "batch":
            row.append(stops_paying(driver, values, known))
        rows.append(row)
    header = ["driver", *(f"{kind} {v:,}" for v in values)]
    if kind == "batch":
        header.append("batching stops paying at")
        unit = "µs per sample: the median µs per call divided by the batch"
    else:
        batches = sorted({r.batch for records in points.values() for r in records})
        unit = f"µs per call of batch {', '.join(f'{b:,}' for b in batches)}"
    note = f"{unit}. {WIDE}: the 95% interval is wider than 10% of the median."
    ran = sorted({len({x.index for x in r.rounds}) for rs in points.values() for r in rs
                  if r.ok})  # fmt: skip
    if len(ran) > 1:  # a user's model's slow points run fewer (sweep_plan.rounds_within)
        note += (f" Rounds a point: {ran[0]} to {ran[-1]} (a point of slow calls runs fewer, "
                 f"so that its rounds take about {sweep_plan.POINT_BUDGET_S:g} s; at least "
                 f"{sweep_plan.MIN_ROUNDS}).")  # fmt: skip
    return note + "\n\n" + fmt.table(header, rows)
