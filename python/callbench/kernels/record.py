"""A kernel's result as a ``Record`` (kind "kernel"): the labels, and one round per repeat.

The record is the drivers' own type; ``records.store.write_record`` checks it
against docs/record.schema.json when it is written.
"""

from __future__ import annotations

import math

from callbench.kernels.kernel import Labels
from callbench.kernels.timing import Measurement
from callbench.records.record import Record, Round, Status

LANGUAGE = "Python"


def rounds(measurement: Measurement) -> list[Round]:
    """Each timed repeat as a round of ``calls_per_repeat`` calls."""
    return [
        Round(index=i, calls=measurement.calls_per_repeat, ns=ns, cpu_ns=cpu)
        for i, (ns, cpu) in enumerate(zip(measurement.repeat_ns, measurement.cpu_ns, strict=True))
    ]


def make_record(
    labels: Labels,
    *,
    threads: int,
    status: Status,
    error: str | None = None,
    measurement: Measurement | None = None,
    max_abs_error: float | None = None,
    tolerance: float | None = None,
) -> Record:
    """One kernel's record; ``measurement`` is None for a kernel that did not get timed."""
    # JSON has no infinity: an unmeasurable error (wrong shape, NaN) is null and failed.
    finite_error = max_abs_error if max_abs_error is None or math.isfinite(max_abs_error) else None
    return Record(
        kind="kernel",
        id=labels.id,
        language=LANGUAGE,
        runtime=labels.runtime,
        runtime_version=labels.runtime_version,
        artifact=None,
        batch=1,
        threads=threads,
        warmup=measurement.untimed_calls if measurement else 0,
        rounds=rounds(measurement) if measurement else [],
        max_abs_error=finite_error,
        tolerance=tolerance,
        kernel={
            "family": labels.family,
            "op": labels.op,
            "impl": labels.impl,
            "shape": list(labels.shape),
            "dtype": labels.dtype,
            "device": labels.device,
            "reference": labels.reference,
        },
        notes={"note": labels.notes} if labels.notes else {},
        status=status,
        error=error,
    )
