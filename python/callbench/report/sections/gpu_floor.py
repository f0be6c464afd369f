"""The GPU rows beside the platform's per-call floor: each GPU row's cost per call as a
multiple of the floor row's (registry role ``gpu_floor``) at the same width and batch.

The floor makes every call's copies, launch and synchronize around an empty kernel, so "×
the floor" says how much of a GPU row's call is the forward and its language's overhead,
and how much the platform takes whatever calls it. The ratio is taken round by round where
the two rows ran in the same group (``ratios.ratio``), with its 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbench.records.record import Record
from callbench.report.blocks.format import table, us, us_interval
from callbench.report.blocks.ratios import ratio
from callbench.report.sections.cpu_or_gpu import is_gpu_floor, on_gpu, width_of

TITLE = "The GPU rows beside the platform's per-call floor"


def section(records: Sequence[Record]) -> str:
    """The section's text, or "" when the floor has no verified record in the run."""
    verified = [r for r in records if r.kind == "driver" and r.ok]
    floors = {(width_of(r), r.batch): r for r in verified if is_gpu_floor(r)}
    if not floors:
        return ""
    widths = {width for width, _ in floors}
    rows = []
    for (width, batch), floor in sorted(floors.items()):
        at = [r for r in verified if on_gpu(r) and not is_gpu_floor(r)
              and (width_of(r), r.batch) == (width, batch)]  # fmt: skip
        found = [(r, ratio(r, floor)) for r in sorted(at, key=lambda r: r.median_ns)]
        lines = [(floor, "1 (the floor)"), *((r, str(x)) for r, x in found if x is not None)]
        for record, cell in lines:
            point = [f"{batch:,}"] if len(widths) == 1 else [str(width), f"{batch:,}"]
            rows.append([*point, f"`{record.id}`", us(record.median_ns),
                         us_interval(record.interval_ns), cell])  # fmt: skip
    floor_id = next(iter(floors.values())).id
    intro = (
        f"Each GPU row's cost per call as a multiple of `{floor_id}`'s at the same batch "
        "(ratio round by round, 95% interval). The floor copies each call's inputs in, "
        "launches an empty kernel with the forward's arguments and grid, copies the output's "
        "bytes back and synchronizes: what any call from C++ pays the platform, computing "
        "nothing (it is checked by the echo of its inputs, not against the model). A row "
        "near 1× is the platform's cost; what is above it is the forward and the "
        "language's way of calling."
    )
    header = (["batch"] if len(widths) == 1 else ["width", "batch"]) + [
        "GPU row", "µs per call", "95% interval", "× the floor"]  # fmt: skip
    return intro + "\n\n" + table(header, rows)
