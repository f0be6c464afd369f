"""The samples a user's torch.export program is called on, and its reference outputs: the
program's own module, ``ep.module()``, in eager under ``torch.inference_mode()``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import first_line
from callbench.model import tensors as tn
from callbench.model import user_inputs
from callbench.model.onnx_signature import Declared
from callbench.model.user_onnx import reference_step
from callbench.model.user_torch_archive import refuse


def samples_for(path: Path, inputs_path: Path | None, inputs: list[Declared]) -> dict[str, Any]:
    fixed = {t.name: tuple(d if isinstance(d, int) else None for d in t.dims[1:]) for t in inputs}
    if inputs_path is not None:
        return user_inputs.from_npz(inputs_path, inputs, fixed)
    for t in inputs:
        if None in fixed[t.name]:
            raise refuse(path, f"input {t.name!r} is {list(t.dims)}: a dynamic size beyond the "
                         "batch; give its samples with --inputs FILE.npz")  # fmt: skip
    shapes = {name: tuple(int(d) for d in dims if d is not None) for name, dims in fixed.items()}
    return user_inputs.generated(inputs, shapes)


def reference_outputs(
    path: Path, ep: Any, inputs: list[Declared], outputs: list[Declared], batch: str | int,
    samples: Mapping[str, np.ndarray],
) -> dict[str, Any]:  # fmt: skip
    """``ep.module()`` in eager, under ``torch.inference_mode()``: each output ``[N, *shape]``."""
    import torch
    from torch.utils._pytree import tree_leaves

    count = len(next(iter(samples.values())))
    step = reference_step(batch, samples)
    parts: list[list[np.ndarray]] = [[] for _ in outputs]
    module = ep.module()
    try:
        with torch.inference_mode():
            for i in range(0, count, step):
                args = [torch.from_numpy(samples[t.name][i : i + step]) for t in inputs]
                leaves = tree_leaves(module(*args))
                if len(leaves) != len(outputs):
                    raise ValueError(f"gave {len(leaves)} outputs, the program declares "
                                     f"{len(outputs)}")  # fmt: skip
                for part, y in zip(parts, leaves, strict=True):
                    part.append(y.numpy())
    except Exception as exc:  # the program's own failure on the generated inputs
        raise refuse(path, f"its module cannot run on the inputs ({first_line(exc)})") from None
    found = {}
    for out, part in zip(outputs, parts, strict=True):
        values = np.concatenate(part)
        if out.dtype in tn.FLOATS and not np.isfinite(values).all():
            raise refuse(path, f"output {out.name!r} is NaN or Inf on the inputs")
        found[out.name] = values
    return found
