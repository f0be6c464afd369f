"""bench's widths phase: the model-size sweep (``--widths``), and the GPU batch sweep again at
each wider width."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from callbench.harness.load import gpu_sweep
from callbench.harness.options import RunOptions
from callbench.harness.run import run_widths
from callbench.languages.spec import DriverSpec
from callbench.model.family import Width
from callbench.records.phases import Phases
from callbench.records.record import Record


def widths(
    rows: Sequence[DriverSpec], specs: Sequence[DriverSpec], on_gpu: Sequence[DriverSpec],
    options: RunOptions, run_dir: Path, sizes: Sequence[Width], phases: Phases,
) -> list[Record]:  # fmt: skip
    """``rows`` at each of ``sizes``, then where a GPU row ran (``on_gpu``) the GPU batch
    sweep at each width, of the chosen ``specs``."""
    with phases.timed("widths"):
        wide = run_widths(rows, options, run_dir, sizes)
        if on_gpu:  # the GPU batch sweep again at each wider width
            gpu_sweep.run_grid(specs, wide, options, run_dir, sizes)
    return wide
