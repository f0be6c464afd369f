"""Kernel records: the fields, how one is built from a measurement, and a validator."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from callbench.kernels.kernel import FAMILIES, Labels
from callbench.kernels.timing import Measurement

KIND = "kernel"
STATUSES = ("ok", "failed", "skipped")
_ID = re.compile(r"^kernel-[a-z0-9][a-z0-9._-]*$")

# Field -> accepted types; every kernel record has exactly these (and may add more).
KERNEL_FIELDS: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "driver": (str,),
    "family": (str,),
    "op": (str,),
    "impl": (str,),
    "language": (str,),
    "runtime": (str,),
    "runtime_version": (str, type(None)),
    "shape": (list,),
    "dtype": (str,),
    "device": (str,),
    "threads": (int,),
    "warmup": (int,),
    "repeats": (int,),
    "calls_per_repeat": (int, type(None)),
    "per_call_ns": (list,),
    "max_abs_error": (float, int, type(None)),
    "tolerance": (float, int, type(None)),
    "reference": (str, type(None)),
    "status": (str,),
    "error": (str, type(None)),
    "notes": (str, type(None)),
}


def make_record(
    labels: Labels,
    *,
    threads: int,
    repeats: int,
    status: str,
    error: str | None = None,
    measurement: Measurement | None = None,
    max_abs_error: float | None = None,
    tolerance: float | None = None,
) -> dict[str, Any]:
    """One record; ``measurement`` is None for kernels that did not get timed."""
    finite_error = max_abs_error if max_abs_error is None or math.isfinite(max_abs_error) else None
    return {
        "kind": KIND,
        "driver": labels.id,
        "family": labels.family,
        "op": labels.op,
        "impl": labels.impl,
        "language": "Python",
        "runtime": labels.runtime,
        "runtime_version": labels.runtime_version,
        "shape": list(labels.shape),
        "dtype": labels.dtype,
        "device": labels.device,
        "threads": threads,
        "warmup": measurement.untimed_calls if measurement else 0,
        "repeats": repeats,
        "calls_per_repeat": measurement.calls_per_repeat if measurement else None,
        "per_call_ns": measurement.per_call_ns if measurement else [],
        "repeat_ns": measurement.repeat_ns if measurement else [],
        # JSON has no infinity: an unmeasurable error (wrong shape, NaN) is null + failed.
        "max_abs_error": finite_error,
        "tolerance": tolerance,
        "reference": labels.reference,
        "status": status,
        "error": error,
        "notes": labels.notes,
        # The driver-record fields that have a meaning here, so code that reads
        # every record of a run (``callbench.records.validate``) accepts these too.
        "calls": measurement.calls_per_repeat if measurement else 0,
        "batch": 1,
        "artifact": None,
        "load_ms": None,
        "peak_rss_mb": None,
        "latency_ns": None,
    }


def validate_kernel(record: Mapping[str, Any]) -> list[str]:
    """Problems with a kernel record, empty when it is well formed."""
    problems: list[str] = []
    for name, types in KERNEL_FIELDS.items():
        if name not in record:
            problems.append(f"missing {name}")
        elif not isinstance(record[name], types) or isinstance(record[name], bool):
            problems.append(f"{name} is {type(record[name]).__name__}")
    if problems:
        return problems
    if record["kind"] != KIND:
        problems.append(f"kind {record['kind']!r} is not {KIND!r}")
    if not _ID.match(record["driver"]):
        problems.append(f"id {record['driver']!r} is not kernel-lower-case-with-dashes")
    if record["family"] not in FAMILIES:
        problems.append(f"family {record['family']!r} is not one of {FAMILIES}")
    if record["status"] not in STATUSES:
        problems.append(f"status {record['status']!r} is not one of {STATUSES}")
    if record["threads"] < 1 or record["repeats"] < 1 or record["warmup"] < 0:
        problems.append("threads and repeats must be >= 1 and warmup >= 0")
    samples = record["per_call_ns"]
    if not all(
        isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s) and s > 0
        for s in samples
    ):
        problems.append("per_call_ns holds a value that is not a positive number")
    if record["status"] == "ok":
        if len(samples) != record["repeats"]:
            problems.append(f"{len(samples)} per_call_ns figures for {record['repeats']} repeats")
        if record["max_abs_error"] is None or record["tolerance"] is None:
            problems.append("an ok record must have its result checked (max_abs_error, tolerance)")
        elif record["max_abs_error"] > record["tolerance"]:
            problems.append("an ok record's max_abs_error exceeds its tolerance")
        if record["error"] is not None:
            problems.append("an ok record carries an error")
    elif not record["error"]:
        problems.append(f"a {record['status']} record must say why (error)")
    if record["status"] == "skipped" and samples:
        problems.append("a skipped record has timings")
    return problems
