"""The samples a user's model is called on: generated per dtype, or ``--inputs FILE.npz``.

Generated: seeded, floats uniform in [-1, 1), integers uniform in [0, 10), bool
at random; 100,000 samples, or fewer where a sample is large (64 MiB of inputs
in all). Given: one array per input name, ``[samples, *shape]`` of the input's
dtype, equal sample counts, read without pickle (a model of one input also takes
an .npy, cast to its dtype).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from callbench.errors import UsageError, first_line
from callbench.model.onnx_signature import Declared
from callbench.model.tensors import DTYPES, FLOATS

SAMPLES = 100_000
INPUT_BYTES = 64 * 1024 * 1024
SEED = 0
INTEGER_RANGE = (0, 10)
GENERATED = (
    f"seeded (seed {SEED}): floats uniform in [-1, 1), integers uniform in "
    f"[{INTEGER_RANGE[0]}, {INTEGER_RANGE[1]}), bool at random"
)


def sample_count(sample_bytes: int) -> int:
    """SAMPLES, or as many as fit INPUT_BYTES where a sample is large (at least one)."""
    return max(1, min(SAMPLES, INPUT_BYTES // max(1, sample_bytes)))


def generated(
    inputs: Sequence[Declared], shapes: Mapping[str, tuple[int, ...]]
) -> dict[str, np.ndarray]:
    """Each input's samples, drawn in the inputs' order from one seeded generator."""
    sample_bytes = sum(
        int(np.prod(shapes[t.name], dtype=np.int64)) * np.dtype(DTYPES[t.dtype][0]).itemsize
        for t in inputs
    )
    count = sample_count(sample_bytes)
    rng = np.random.default_rng(SEED)
    found = {}
    for t in inputs:
        size, dtype = (count, *shapes[t.name]), np.dtype(DTYPES[t.dtype][0])
        if t.dtype in FLOATS:
            values = rng.uniform(-1.0, 1.0, size=size).astype(dtype)
        elif t.dtype == "bool":
            values = rng.integers(0, 2, size=size).astype(dtype)
        else:
            values = rng.integers(*INTEGER_RANGE, size=size).astype(dtype)
        found[t.name] = values
    return found


def _problem(path: Path, problem: str) -> UsageError:
    return UsageError(f"{path}: {problem}")


def from_npy(path: Path, only: Declared, fixed: tuple[int | None, ...]) -> dict[str, np.ndarray]:
    """``--inputs FILE.npy`` for a model of one input: real numbers, cast to its dtype."""
    try:
        data = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise _problem(path, f"not a .npy array ({first_line(exc)})") from None
    want = "[N, " + ", ".join("?" if d is None else str(d) for d in fixed) + "]"
    if (
        not isinstance(data, np.ndarray)
        or data.ndim != len(fixed) + 1
        or any(d is not None and d != s for d, s in zip(fixed, data.shape[1:], strict=True))
    ):
        raise _problem(path, f"has shape {getattr(data, 'shape', None)}; the model takes {want}")
    if data.shape[0] == 0 or not np.issubdtype(data.dtype, np.number):
        raise _problem(path, f"holds {data.shape[0]} samples of {data.dtype}; need real numbers")
    cast = np.ascontiguousarray(data, dtype=DTYPES[only.dtype][0])
    if only.dtype in FLOATS and not np.isfinite(cast).all():
        raise _problem(path, "holds NaN or Inf")
    return {only.name: cast}


def from_npz(
    path: Path, inputs: Sequence[Declared], fixed: Mapping[str, tuple[int | None, ...]]
) -> dict[str, np.ndarray]:
    """``--inputs FILE.npz``, checked against the model's inputs: their names, dtypes, the
    fixed sizes of their dimensions (None: any), and one sample count for all."""
    if not path.is_file():
        raise _problem(path, "no such file")
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise _problem(path, "is one array, not an .npz of one array per input name")
        with loaded as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (ValueError, OSError, EOFError) as exc:  # pickled objects refused, bad zip
        raise _problem(path, f"not an .npz of arrays ({first_line(exc)})") from None
    wanted = [t.name for t in inputs]
    missing = [n for n in wanted if n not in arrays]
    extra = sorted(n for n in arrays if n not in wanted)
    if missing or extra:
        said = "; ".join(
            part for part in (f"missing {', '.join(map(repr, missing))}" if missing else "",
                              f"not inputs of the model: {', '.join(map(repr, extra))}"
                              if extra else "") if part
        )  # fmt: skip
        raise _problem(path, f"{said} (the model's inputs: {', '.join(map(repr, wanted))})")
    counts = set()
    for t in inputs:
        array, dims = arrays[t.name], fixed[t.name]
        if array.dtype != np.dtype(DTYPES[t.dtype][0]).newbyteorder("="):
            raise _problem(path, f"{t.name!r} is {array.dtype}; the model takes {t.dtype}")
        shape = array.shape[1:]
        if array.ndim != len(dims) + 1 or any(
            d is not None and d != s for d, s in zip(dims, shape, strict=True)
        ):
            want = ", ".join("?" if d is None else str(d) for d in dims)
            raise _problem(path, f"{t.name!r} has shape {list(array.shape)}; the model takes "
                                 f"[samples, {want}]")  # fmt: skip
        if t.dtype in FLOATS and not np.isfinite(array).all():
            raise _problem(path, f"{t.name!r} holds NaN or Inf")
        counts.add(array.shape[0])
    if len(counts) > 1:
        sizes = ", ".join(f"{t.name!r} {arrays[t.name].shape[0]}" for t in inputs)
        raise _problem(path, f"the inputs hold different sample counts ({sizes})")
    if counts == {0}:
        raise _problem(path, "holds no samples")
    return {t.name: np.ascontiguousarray(arrays[t.name]) for t in inputs}
