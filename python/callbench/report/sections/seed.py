"""The seed study's table (shared/seeds/002_…) beside ours, row by row.

Each of the seed's rows maps to our drivers, marked seed_row(...) on their
registry lines: where the seed's code differs from our call, a ``-seed`` driver
runs the seed's code exactly as written and sits next to our call, so the
report can say which difference moves a figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from callbench.records.record import Record
from callbench.registry import seed_driver, seed_drivers
from callbench.report.blocks import format as fmt
from callbench.report.blocks.ratios import ratio
from callbench.roles import PYTHON_MODULE, SEED_ROWS, Call

SEED_SOURCE = "shared/seeds/002_60117e6da99f211a.txt (LibTorch 1.11, the author's machine)"
SEED_BASE = PYTHON_MODULE.seconds
MILLION = 1_000_000


def base_driver(by_id: Mapping[str, Record]) -> Record | None:
    """Our counterpart of the seed's Python row: its loop as written, else our eager call."""
    for spec in seed_drivers(PYTHON_MODULE):
        record = by_id.get(spec.id)
        if record is not None and record.ok:
            return record
    return None


def _ours_cells(record: Record | None, base: Record | None) -> list[str]:
    if record is None:
        return ["not measured", fmt.NOT_SHOWN]
    if not record.ok:
        return [record.status, fmt.NOT_SHOWN]
    speedup = ratio(base, record) if base is not None else None
    return [fmt.seconds_per_million(record.median_ns) + " s", str(speedup or fmt.NOT_SHOWN)]


def seed_table(by_id: Mapping[str, Record]) -> str:
    """The seed's five rows, each with our drivers for it, and speed-ups against Python."""
    base = base_driver(by_id)
    base_id = base.id if base else seed_driver(PYTHON_MODULE, Call.AS_WRITTEN)
    rows = []
    for seed in SEED_ROWS:
        for n, ours in enumerate(seed_drivers(seed)):
            seed_cells = (
                [seed.label, f"{seed.seconds:.0f} s", f"{SEED_BASE / seed.seconds:.1f}×"]
                if n == 0 else ["", "", ""]
            )  # fmt: skip
            how = ours.seed.how if ours.seed else ""
            rows.append([*seed_cells, f"`{ours.id}`", how,
                         *_ours_cells(by_id.get(ours.id), base)])  # fmt: skip
    header = [
        "seed row", "seed, 1M calls", "seed speed-up vs its Python", "our driver", "its call",
        _ours_header(by_id.values()), f"our speed-up vs `{base_id}` (95% interval)",
    ]  # fmt: skip
    note = (
        f"Seed: {SEED_SOURCE}. {_ours_note(by_id.values())} Absolute times belong to each "
        "machine; the speed-ups against the Python row are what carry over."
    )
    return fmt.table(header, rows) + "\n\n" + note


def _timed_millions(records: Iterable[Record]) -> bool:
    """Whether the run timed the seed's protocol: every round a million calls."""
    rounds = [r for record in records if record.ok for r in record.counted()]
    return bool(rounds) and all(r.calls == MILLION for r in rounds)


def _ours_header(records: Iterable[Record]) -> str:
    return "ours: 1M calls measured" if _timed_millions(records) else "ours: median call × 10⁶"


def _ours_note(records: Iterable[Record]) -> str:
    if _timed_millions(records):
        return "Ours: the median round of 1,000,000 calls, timed as the seed timed them."
    return (
        "Ours: the median call × 1,000,000, from calibrated rounds shorter than a million "
        "calls; it is not a measured million. Rounds of a million calls "
        "(`callbench run --calls 1000000`) have taken 1.2–1.5× longer on this project's VM "
        "(the README gives both, with their runs)."
    )
