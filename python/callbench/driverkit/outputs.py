"""The files a driver leaves for the harness: its outputs and its per-call latencies."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from callbench.files import write_atomic


def write_outputs(path: Path, outputs: Sequence[np.ndarray], samples: int) -> None:
    """Each output's first ``samples`` samples, one output after another (contract 3)."""
    write_atomic(path, b"".join(np.ascontiguousarray(out[:samples]).tobytes() for out in outputs))


def write_int64s(path: Path, latencies: np.ndarray) -> None:
    write_atomic(path, latencies.astype("<i8").tobytes())
