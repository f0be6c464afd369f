"""The model family (``--widths``): each hidden width trained briefly and written with the
portable formats, inputs and reference into models/widths/<H>/, listed in family.json.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from callbench.model import artifacts as art
from callbench.model.architecture import HIDDEN, flops_per_sample, weight_count
from callbench.model.family import parse_widths as parse_any_widths
from callbench.model.portable import (
    INPUT_SEED,
    describe,
    make_inputs,
    portable_blobs,
    quiet_exporters,
    write_blobs,
)
from callbench.model.training import family_training, train

# A width of the family gets the samples a calibrated round could take at its size:
# 0.05 s at 100 GFLOP/s (above one core's peak here), at least 10,000.
ROUND_FLOPS = 0.05 * 100e9
FAMILY_MIN_SAMPLES = 10_000
# A brief fit still learns the target: its RMSE is a small part of |x1| + x2's spread (about 6).
FAMILY_FIT_LIMIT = 0.5


def family_samples(hidden: int, cap: int) -> int:
    """The samples written for a width: what one calibrated round could take, within the cap."""
    fits = int(ROUND_FLOPS / flops_per_sample(hidden))
    return min(cap, max(FAMILY_MIN_SAMPLES, fits))


def export_width(out: Path, hidden: int, cap: int) -> dict[str, Any]:
    """One width of the family into ``out``/widths/<hidden>/: the portable formats, the
    inputs and reference, and a manifest like the reference model's; its family entry."""
    torch.set_num_threads(1)
    start = time.perf_counter()
    config = family_training(hidden)
    model, fit_rmse = train(config, hidden)
    samples = family_samples(hidden, cap)
    folder = out / art.family_folder(hidden)
    seconds: dict[str, float] = {}
    files = write_blobs(folder, portable_blobs(model, make_inputs(samples, INPUT_SEED), seconds))
    manifest = {**describe(model, samples, config, fit_rmse), "files": files}
    art.write_atomic(folder / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    art.write_atomic(folder / art.EXPORT_SECONDS, (json.dumps(seconds, indent=2) + "\n").encode())
    print(f"width {hidden}: fit RMSE {fit_rmse:.4f}, {samples:,} samples, "
          f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
    return {
        "hidden": hidden,
        "folder": art.family_folder(hidden),
        "parameters": weight_count(hidden),
        "flops_per_sample": flops_per_sample(hidden),
        "fit_rmse": fit_rmse,
        "samples": samples,
        "files": {name: entry["sha256"] for name, entry in files.items()},
    }


def export_family(out: Path, widths: Sequence[int], cap: int) -> dict[str, Any]:
    """``out``/family.json: the reference model and each width written, largest last.

    The reference's own files and manifest are untouched, so runs made before
    the family existed still compare with runs made after.
    """
    quiet_exporters()
    for stale in art.family_folders(out):
        if int(stale.name) not in widths:
            shutil.rmtree(stale)
    family = {
        "architecture": "2 -> H -> H -> 1, ReLU between layers",
        "reference": {
            "hidden": HIDDEN,
            "folder": ".",
            "parameters": weight_count(),
            "flops_per_sample": flops_per_sample(),
        },
        "widths": [export_width(out, hidden, cap) for hidden in sorted(widths)],
    }
    art.write_atomic(out / art.FAMILY, (json.dumps(family, indent=2) + "\n").encode())
    return family


def parse_widths(text: str) -> tuple[int, ...]:
    """ "64,512,2048" -> (64, 512, 2048); "" -> (); the reference's 8 is always written."""
    return tuple(w for w in parse_any_widths(text) if w != HIDDEN)
