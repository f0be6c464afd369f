"""The second axis: instructions per call under callgrind, beside the timed cost.

A count does not move with a neighbour's load the way a time does on a shared
VM; it says how much work a call is, not how fast the machine runs it.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.records import count as derive
from callbench.records.record import Record
from callbench.report import format as fmt


def _counted(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r.count is not None]


def count_section(records: Sequence[Record]) -> str:
    """The counts table, or an empty string when no record of the run was counted."""
    counted = _counted(records)
    if not counted:
        return ""
    ok = sorted(
        (r for r in counted if r.count and r.count["status"] == "ok"),
        key=lambda r: derive.summary(r.count or {})["instructions_per_call"],
    )
    rest = sorted((r for r in counted if r not in ok), key=lambda r: r.id)
    cache_sim = any(r.count and r.count.get("cache_sim") for r in ok)
    header = ["driver", "instructions / call", "pairs' spread", "K"]
    header += ["est. cycles / call"] if cache_sim else []
    header += ["µs / call (timed)", "instructions / ns (timed)"]
    rows = []
    for record in ok:
        block = record.count or {}
        figures = derive.summary(block)
        per_call = float(figures["instructions_per_call"])
        width = figures["spread"]
        spread = fmt.NOT_SHOWN if width is None else f"{width:.2%}"
        if figures["varying"]:
            spread += " varying"
        row = [f"`{record.id}`", f"{per_call:,.0f}", spread, f"{block['calls']:,}"]
        if cache_sim:
            cycles = figures["est_cycles_per_call"]
            row.append(fmt.NOT_SHOWN if cycles is None else f"{cycles:,.0f}")
        if record.ok:
            row += [fmt.us(record.median_ns), f"{per_call / record.median_ns:.2f}"]
        else:
            row += [fmt.NOT_SHOWN, fmt.NOT_SHOWN]
        rows.append(row)
    for record in rest:
        block = record.count or {}
        cells = [f"{block.get('status')}: {fmt.one_line(block.get('error'))}"]
        rows.append([f"`{record.id}`", *cells, *[""] * (len(header) - 2)])
    first = (ok or rest)[0].count or {"pairs": []}
    text = [
        "Each driver served under Valgrind's callgrind "
        f"({first.get('valgrind') or 'Valgrind'}), loaded and warmed up uninstrumented; "
        f"then rounds of K and of 2K calls are each counted alone, {len(first['pairs'])} "
        "times, and "
        "instructions per call = (I(2K) - I(K)) / K, so a round's own cost cancels. "
        "The figure is the median of the pairs; a row whose pairs differ by over "
        f"{derive.VARYING:.0%} is marked varying: that runtime does different work "
        "from call to call. Outputs were checked against `reference.f32` as in a timed run.",
        "",
        f"Instruction set: {first.get('isa')}. Under Valgrind, runtimes that choose "
        "kernels by CPU feature (ONNX Runtime, oneDNN, XNNPACK, OpenVINO) take their AVX2 "
        "paths, so a count is of the AVX2 code even on a machine with AVX-512.",
    ]
    if cache_sim:
        text += [
            "",
            "Estimated cycles (`--cache-sim`) = L1 hits + 5 × LL hits + 35 × RAM accesses, "
            "the estimate Gungraun (formerly iai-callgrind) and CodSpeed use.",
        ]
    return "\n".join([*text, "", fmt.table(header, rows)])
