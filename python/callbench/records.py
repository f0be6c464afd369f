"""Result records: one JSON file per driver and run, written atomically.

A run lives in ``results/runs/<run-id>/``: ``env.json`` plus one
``<driver-id>.json`` per driver. Run ids carry the UTC time, the host and a
random suffix, and the folder is created exclusively, so two runs started at
the same moment never share a folder.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from callbench.artifacts import write_atomic
from callbench.catalogue import REPO_ROOT

RESULTS = REPO_ROOT / "results"
RUNS = RESULTS / "runs"
ENV_FILE = "env.json"
STATUSES = ("ok", "failed", "skipped")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")

# Field -> accepted types, for every driver record (kernel records add their own).
DRIVER_FIELDS: dict[str, tuple[type, ...]] = {
    "driver": (str,),
    "language": (str,),
    "runtime": (str,),
    "runtime_version": (str, type(None)),
    "artifact": (str, type(None)),
    "calls": (int,),
    "batch": (int,),
    "threads": (int,),
    "warmup": (int,),
    "repeats": (int,),
    "per_call_ns": (list,),
    "load_ms": (float, int, type(None)),
    "peak_rss_mb": (float, int, type(None)),
    "latency_ns": (dict, type(None)),
    "max_abs_error": (float, int, type(None)),
    "status": (str,),
    "error": (str, type(None)),
}


def new_run_dir(runs: Path = RUNS) -> Path:
    """Create and return a fresh run folder (never one that already exists)."""
    runs.mkdir(parents=True, exist_ok=True)
    host = re.sub(r"[^a-z0-9-]", "-", socket.gethostname().lower())[:40] or "host"
    while True:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        path = runs / f"{stamp}-{host}-{secrets.token_hex(3)}"
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    write_atomic(path, (json.dumps(data, indent=2, allow_nan=False) + "\n").encode())


def write_record(run_dir: Path, record: Mapping[str, Any]) -> Path:
    """Validate and atomically write ``record`` as ``<run_dir>/<driver>.json``."""
    problems = validate(record)
    if problems:
        raise ValueError(f"invalid record for {record.get('driver')!r}: {'; '.join(problems)}")
    path = run_dir / f"{record['driver']}.json"
    write_json(path, record)
    return path


def validate(record: Mapping[str, Any]) -> list[str]:
    """Problems with a record, empty when it is well formed."""
    problems: list[str] = []
    for field, types in DRIVER_FIELDS.items():
        if field not in record:
            problems.append(f"missing {field}")
        elif not isinstance(record[field], types) or isinstance(record[field], bool):
            problems.append(f"{field} is {type(record[field]).__name__}")
    if problems:
        return problems
    if not _ID.match(record["driver"]):
        problems.append(f"driver id {record['driver']!r} is not lower-case-with-dashes")
    if record["status"] not in STATUSES:
        problems.append(f"status {record['status']!r} is not one of {STATUSES}")
    samples = record["per_call_ns"]
    if not all(isinstance(s, (int, float)) and math.isfinite(s) and s > 0 for s in samples):
        problems.append("per_call_ns holds a value that is not a positive number")
    if record["status"] == "ok":
        if len(samples) != record["repeats"]:
            problems.append(f"{len(samples)} per_call_ns figures for {record['repeats']} repeats")
        if record["max_abs_error"] is None:
            problems.append("an ok record must have its outputs checked (max_abs_error)")
        if record["error"] is not None:
            problems.append("an ok record carries an error")
    elif not record["error"]:
        problems.append(f"a {record['status']} record must say why (error)")
    return problems


def load_run(run_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(env, records)`` of one run folder; records sorted by file name."""
    env_path = run_dir / ENV_FILE
    env: dict[str, Any] = json.loads(env_path.read_text()) if env_path.is_file() else {}
    records = [
        json.loads(p.read_text())
        for p in sorted(run_dir.glob("*.json"))
        if p.name != ENV_FILE and not p.name.startswith(".")
    ]
    return env, records


def latest_run(runs: Path = RUNS) -> Path | None:
    candidates = sorted(p for p in runs.glob("*") if p.is_dir() and (p / ENV_FILE).is_file())
    return candidates[-1] if candidates else None
