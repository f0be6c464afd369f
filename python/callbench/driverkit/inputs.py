"""Reading and checking every input's file for a run of ``calls`` x ``batch`` samples."""

from __future__ import annotations

import numpy as np

from callbench.driver_options import Options
from callbench.errors import DataError, UsageError
from callbench.model.tensors import Signature, read_samples


def read_inputs(options: Options, signature: Signature) -> tuple[np.ndarray, ...]:
    """The run's samples of each input, contiguous ``[calls * batch, *shape]`` arrays."""
    needed = options.calls * options.batch
    found = []
    for tensor in signature.inputs:
        try:
            samples = read_samples(options.models, tensor, needed)
        except DataError as exc:
            if "the run needs" in exc.problem:
                raise UsageError(f"--calls x --batch = {needed} but {exc}") from None
            raise
        found.append(np.ascontiguousarray(samples[:needed]))
    return tuple(found)
