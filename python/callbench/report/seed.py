"""The seed study's table (shared/seeds/002_…) beside ours, row by row.

Each of the seed's rows maps to our drivers: where the seed's code differs
from our call, a ``-seed`` driver runs the seed's code exactly as written and
sits next to our call, so the report can say which difference moves a figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from callbench.records.record import Record
from callbench.report import format as fmt
from callbench.report.ratios import ratio

SEED_SOURCE = "shared/seeds/002_60117e6da99f211a.txt (LibTorch 1.11, the author's machine)"


@dataclass(frozen=True)
class Ours:
    driver: str
    how: str  # how this driver makes the call, in a few words


@dataclass(frozen=True)
class SeedRow:
    label: str
    seconds: float  # for 1,000,000 calls
    ours: tuple[Ours, ...]


PYTHON_SEED = "python-eager-seed"
PYTHON_OURS = "python-eager"
SEED_ROWS: tuple[SeedRow, ...] = (
    SeedRow("Python (torch.nn.Module)", 124.0, (
        Ours(PYTHON_SEED, "the seed's loop as written: `for x in X` over [N, 2], "
                          "two `nn.ReLU()` built per call"),
        Ours(PYTHON_OURS, "our module (`torch.relu`, no module built per call) on [1, 2] views"),
    )),
    SeedRow("TorchScript from Python", 54.0, (
        Ours("python-torchscript", "`torch.jit.load`, one call a sample"),
    )),
    SeedRow("TorchScript from Java", 35.0, (
        Ours("java-pytorch", "the seed's `Tensor.fromBlob` + `IValue.from` + `forward`"),
    )),
    SeedRow("TorchScript from C++", 44.0, (
        Ours("cpp-torchscript-seed", "the seed's call as written: no InferenceMode, "
                                     "a new `std::vector<IValue>` around a {2} tensor"),
        Ours("cpp-torchscript", "the same call under InferenceMode, on a [1, 2] tensor"),
        Ours("cpp-torchscript-reuse", "frozen module, reused input and stack"),
    )),
    SeedRow("C++ API (LibTorch modules)", 9.0, (
        Ours("cpp-libtorch", "`torch::nn::Linear` modules under InferenceMode, as the seed"),
    )),
)  # fmt: skip
SEED_BASE = SEED_ROWS[0].seconds


def by_label(label: str) -> SeedRow:
    return next(row for row in SEED_ROWS if row.label == label)


def base_driver(by_id: Mapping[str, Record]) -> Record | None:
    """Our counterpart of the seed's Python row: its loop as written, else our eager call."""
    for driver in (PYTHON_SEED, PYTHON_OURS):
        record = by_id.get(driver)
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
    rows = []
    for seed in SEED_ROWS:
        for n, ours in enumerate(seed.ours):
            seed_cells = (
                [seed.label, f"{seed.seconds:.0f} s", f"{SEED_BASE / seed.seconds:.1f}×"]
                if n == 0 else ["", "", ""]
            )  # fmt: skip
            rows.append([*seed_cells, f"`{ours.driver}`", ours.how,
                         *_ours_cells(by_id.get(ours.driver), base)])  # fmt: skip
    header = [
        "seed row", "seed, 1M calls", "seed speed-up vs its Python", "our driver", "its call",
        "ours, 1M calls", f"our speed-up vs `{base.id if base else PYTHON_SEED}` (95% interval)",
    ]  # fmt: skip
    note = (
        f"Seed: {SEED_SOURCE}. Ours: the median per call × 1,000,000. Absolute times belong "
        "to each machine; the speed-ups against the Python row are what carry over."
    )
    return fmt.table(header, rows) + "\n\n" + note
