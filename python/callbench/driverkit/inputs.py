"""Reading and checking every input's file for a run of ``calls`` x ``batch`` samples."""

from __future__ import annotations

import numpy as np

from callbench.driver_options import Options
from callbench.errors import DataError, UsageError
from callbench.model.tensors import Signature, read_samples


def read_inputs(
    options: Options, signature: Signature, *, every: bool = False
) -> tuple[np.ndarray, ...]:
    """The run's samples of each input, contiguous ``[calls * batch, *shape]`` arrays; with
    ``every``, all the samples the files hold (as many of each input), for callers to share."""
    needed = options.calls * options.batch
    found = []
    for tensor in signature.inputs:
        try:
            samples = read_samples(options.models, tensor, needed)
        except DataError as exc:
            if "the run needs" in exc.problem:
                raise UsageError(f"--calls x --batch = {needed} but {exc}") from None
            raise
        found.append(samples if every else np.ascontiguousarray(samples[:needed]))
    if every:
        held = min(len(samples) for samples in found)
        return tuple(samples[:held] for samples in found)
    return tuple(found)
