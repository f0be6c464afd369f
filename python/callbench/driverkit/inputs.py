"""Reading and checking inputs.f32 for a run of ``calls`` x ``batch`` samples."""

from __future__ import annotations

import numpy as np

from callbench.driver_options import Options
from callbench.errors import ArtifactError, UsageError
from callbench.model.artifacts import read_inputs


def load_inputs(options: Options) -> np.ndarray:
    """The run's samples as a contiguous ``[calls * batch, 2]`` float32 array."""
    needed = options.calls * options.batch
    try:
        inputs = read_inputs(options.models, needed)
    except ArtifactError as exc:
        if "the run needs" in exc.problem:
            raise UsageError(f"--calls x --batch = {needed} but {exc}") from None
        raise
    return np.ascontiguousarray(inputs[:needed])
