"""Whether a row's artifact reaches a batch: a user's program can make artifacts that run at
some batches only, a trace that baked its batch in (traced at the batches the run calls) or an
ExecuTorch program whose memory was planned up to a largest batch (model/user_torch_artifacts.py
records it). A row asked past them is skipped, saying why, before its driver starts, in a run
and in serve-rate (a batcher's B is its batch).
"""

from __future__ import annotations

from pathlib import Path

from callbench.harness import traces
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import user_onnx


def why_not_at(spec: DriverSpec, models_dir: Path, batch: int) -> str | None:
    """Why ``spec`` is skipped at ``batch`` (None: its artifact runs there)."""
    return traces.not_traced_at(spec, models_dir, batch) or above_planned(spec, models_dir, batch)


def above_planned(spec: DriverSpec, models_dir: Path, batch: int) -> str | None:
    """Why ``batch`` is past the largest batch the row's program was planned for."""
    manifest = art.read_manifest(models_dir)
    made = user_onnx.made_from_program(manifest, spec.artifact)
    largest = made.get("largest_batch") if made is not None else None
    if largest is None or batch <= largest:
        return None
    return (f"batch {batch:,} is above the largest batch {largest:,} that {spec.artifact} was "
            "planned for (ExecuTorch plans its memory at the program's upper bound of the "
            "batch)")  # fmt: skip
