"""The files a driver leaves for the harness: its outputs and its per-call latencies."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from callbench.files import write_atomic


def write_outputs(path: Path, outputs: np.ndarray) -> None:
    write_atomic(path, np.ascontiguousarray(outputs, dtype="<f4").tobytes())


def write_latencies(path: Path, latencies: np.ndarray) -> None:
    write_atomic(path, latencies.astype("<i8").tobytes())
