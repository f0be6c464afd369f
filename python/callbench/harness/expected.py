"""What a driver's outputs must be: each output's reference samples and its tolerance.

A driver's outputs file holds each output's samples one after another, in the
signature's order, each in its own dtype (contract 3). Float outputs may differ
from the reference by their tolerance; integer and bool outputs must be equal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from callbench.errors import DataError
from callbench.harness.options import ATOL, RunOptions
from callbench.languages.spec import DriverSpec
from callbench.model.tensors import FLOATS, Signature, Tensor, read_samples
from callbench.roles import GPU_FLOOR


@dataclass(frozen=True)
class Checked:
    """One output of one driver against its reference."""

    name: str
    max_abs_error: float
    tolerance: float


@dataclass(frozen=True)
class Expected:
    """Each output with its reference ``[samples, *shape]`` (the samples of every call)."""

    signature: Signature
    outputs: tuple[tuple[Tensor, np.ndarray], ...]
    # What every record says of the reference, where no witness confirmed it (--unwitnessed).
    reference_note: str | None = None

    @property
    def samples(self) -> int:
        return len(self.outputs[0][1])

    @property
    def tolerance(self) -> float:
        """The first output's tolerance: the record's, before a driver is checked."""
        return tolerance_of(self.outputs[0][0])

    def first(self, samples: int) -> Expected:
        return replace(self, outputs=tuple((t, ref[:samples]) for t, ref in self.outputs))

    def of_callers(self, callers: int, calls: int, batch: int) -> Expected:
        """What ``callers`` callers' rounds of ``calls`` calls of ``batch`` samples write
        (contract 4): caller c's call i is the reference's call (c * calls + i) mod S, S the
        calls the samples hold at this batch; caller after caller."""
        held = self.samples // batch
        which = np.concatenate([(c * calls + np.arange(calls)) % held for c in range(callers)])
        return self.first(held * batch).at_calls(which, batch)

    def at_calls(self, calls: np.ndarray, batch: int) -> Expected:
        """The samples of ``calls`` (indices into this one's calls of ``batch`` samples)."""

        def taken(ref: np.ndarray) -> np.ndarray:
            per_call = ref.reshape(len(ref) // batch, batch, *ref.shape[1:])
            return np.asarray(per_call[calls]).reshape(-1, *ref.shape[1:])

        return replace(self, outputs=tuple((t, taken(ref)) for t, ref in self.outputs))

    def check(self, path: Path) -> tuple[list[Checked], str | None]:
        """Each output of the file at ``path`` against its reference, and the first problem."""
        if not path.is_file():
            return [], "wrote no outputs file"
        return self.check_bytes(path.read_bytes())

    def check_bytes(self, data: bytes) -> tuple[list[Checked], str | None]:
        """Each output of an outputs file's ``data`` against its reference, and the first
        problem."""
        want = sum(ref.nbytes for _, ref in self.outputs)
        if len(data) != want:
            sizes = ", ".join(
                f"{t.name!r} {len(ref)} x {t.sample_size} {t.dtype}" for t, ref in self.outputs
            )
            return [], f"wrote {len(data)} bytes of outputs, expected {want} ({sizes})"
        checked: list[Checked] = []
        start = 0
        for tensor, ref in self.outputs:
            got = np.frombuffer(data, tensor.numpy_dtype, ref.size, start).reshape(ref.shape)
            start += ref.nbytes
            found, problem = _compare(tensor, got, ref)
            if problem is not None:
                return checked, problem
            checked.append(found)
        return checked, None


def tolerance_of(tensor: Tensor) -> float:
    """The manifest's tolerance for an output; 0 (equality) for integers and bool."""
    if tensor.dtype not in FLOATS:
        return 0.0
    return tensor.tolerance if tensor.tolerance is not None else ATOL


def _compare(tensor: Tensor, got: np.ndarray, want: np.ndarray) -> tuple[Checked, str | None]:
    tolerance = tolerance_of(tensor)
    flat_got, flat_want = got.reshape(-1), want.reshape(-1)
    if tensor.dtype in FLOATS:
        diff = np.abs(flat_got.astype(np.float64) - flat_want.astype(np.float64))
        if not np.isfinite(diff).all():
            bad = int(np.flatnonzero(~np.isfinite(diff))[0])
            return Checked(tensor.name, float("inf"), tolerance), (
                f"output {tensor.name!r} value {bad} is {flat_got[bad]} (NaN/Inf or never stored)"
            )
    else:
        diff = (flat_got != flat_want).astype(np.float64)
        if tensor.dtype != "bool":
            diff *= np.abs(flat_got.astype(np.float64) - flat_want.astype(np.float64))
    worst = int(diff.argmax()) if diff.size else 0
    error = float(diff[worst]) if diff.size else 0.0
    found = Checked(tensor.name, error, tolerance)
    if error > tolerance:
        sample = worst // max(1, tensor.sample_size)
        return found, (
            f"outputs differ from {tensor.file} by {error:.3g} at sample {sample} (output "
            f"{tensor.name!r}: got {flat_got[worst]}, want {flat_want[worst]}; "
            f"tolerance {tolerance:g})"
        )
    return found, None


def read_expected(models: Path, signature: Signature) -> Expected:
    """Each output's reference file, checked (DataError naming the file)."""
    return Expected(signature, tuple((t, read_samples(models, t)) for t in signature.outputs))


def echo_of(models: Path, signature: Signature, batch: int) -> Expected:
    """What a row that computes nothing must write (registry role ``gpu_floor``): each call
    of ``batch`` samples copies its inputs' leading bytes back as its outputs, equal to the
    bit (tolerance 0). For one input and one output of one dtype, an output sample no larger
    than an input's; else an DataError naming the inputs file."""
    source, output = signature.inputs[0], signature.outputs[0]
    path = models / source.file
    if (len(signature.inputs), len(signature.outputs)) != (1, 1) or source.dtype != output.dtype:
        raise DataError(path, "an echo needs one input and one output of one dtype")
    if output.sample_size > source.sample_size:
        raise DataError(path, f"an input sample ({source.sample_size} values) is smaller "
                                  f"than an output sample ({output.sample_size})")  # fmt: skip
    inputs = read_samples(models, source)
    calls = len(inputs) // batch
    each_call = inputs[: calls * batch].reshape(calls, batch * source.sample_size)
    echoed = each_call[:, : batch * output.sample_size].reshape(calls * batch, *output.shape)
    echo = replace(output, file=source.file, tolerance=0.0)
    return Expected(signature, ((echo, echoed),))


def outputs_of(expected: Expected, spec: DriverSpec, options: RunOptions, calls: int) -> Expected:
    """What ``spec``'s outputs must hold after ``calls`` calls a caller: the reference's
    first samples, at N callers each caller's; for a row that computes nothing (the GPU's
    floor) the echo of its inputs."""
    if GPU_FLOOR in spec.roles:
        expected = echo_of(options.models, expected.signature, options.batch)
    callers, batch = options.callers, options.batch
    return (expected.first(calls * batch) if callers == 1
            else expected.of_callers(callers, calls, batch))  # fmt: skip


def worst(checked: list[Checked]) -> Checked | None:
    """The output nearest its tolerance (error over tolerance; equal outputs last): the
    record's max_abs_error and tolerance."""
    if not checked:
        return None

    def nearness(c: Checked) -> float:
        if c.tolerance:
            return c.max_abs_error / c.tolerance
        return 0.0 if c.max_abs_error == 0 else float("inf")

    return max(checked, key=nearness)
