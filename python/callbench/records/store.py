"""Run folders on disk: one loader and one writer for every record, driver or kernel.

A run lives in ``results/runs/<run-id>/``: ``env.json``, one ``<id>.json`` per
driver or kernel, latency samples beside them (``<id>.latencies.npz``), and
sweep points under ``sweep-<kind>/<value>/``. Run ids carry the UTC time, the
host and a random suffix, and the folder is created exclusively.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbench.errors import RunError
from callbench.files import write_atomic
from callbench.paths import RESULTS, RUNS
from callbench.records import schema
from callbench.records.record import Record

__all__ = ["RESULTS", "RUNS", "ResultsError", "Run", "load_run", "new_run_dir", "write_record"]

ENV_FILE = "env.json"
# Files in a run folder that are not records.
NOT_RECORDS = (ENV_FILE, "ladder.json")
LATENCIES_SUFFIX = ".latencies.npz"


class ResultsError(RunError):
    """The results folder cannot be written (full disk, read-only, ...): one line, exit 1."""


def _results_error(path: Path, exc: OSError) -> ResultsError:
    where = exc.filename or path
    return ResultsError(f"{where}: cannot write results: {exc.strerror or exc}")


def new_run_dir(runs: Path = RUNS, run_id: str | None = None) -> Path:
    """A fresh run folder, or the folder of ``run_id`` (made if missing, shared if not)."""
    try:
        runs.mkdir(parents=True, exist_ok=True)
        if run_id is not None:
            path = runs / run_id
            path.mkdir(exist_ok=True)
            return path
        host = re.sub(r"[^a-z0-9-]", "-", socket.gethostname().lower())[:40] or "host"
        while True:
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            path = runs / f"{stamp}-{host}-{secrets.token_hex(3)}"
            try:
                path.mkdir()
            except FileExistsError:
                continue
            return path
    except OSError as exc:
        raise _results_error(runs, exc) from None


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    try:
        write_atomic(path, (json.dumps(data, indent=2, allow_nan=False) + "\n").encode())
    except OSError as exc:
        raise _results_error(path, exc) from None


def record_folder(run_dir: Path, record: Record) -> Path:
    """``sweep-batch/256``; a batch point of a wider model (the GPU grid) goes to
    ``sweep-batch-w512/256``; a row's N copies (serve-rate --processes), beside its N
    threads, to ``sweep-serving/2-processes``; a row served through a batcher (contract 7) to
    ``sweep-serving/1-batcher-b16-d200`` (B 16, D 200 µs); one caller of T intra-op threads
    served to ``sweep-serving/1-intra-op{T}``."""
    sweep = record.sweep
    if not sweep:
        return run_dir
    width = f"-w{sweep['width']}" if sweep.get("width") else ""
    copies = "-processes" if record.processes > 1 and sweep["kind"] != "processes" else ""
    batcher = sweep.get("batcher")
    way = f"-batcher-b{batcher['batch']}-d{batcher['max_delay_us']}" if batcher else ""
    if batcher and batcher.get("gathered"):
        way += "-gathered"
    if sweep["kind"] == "serving" and record.threads > 1:  # one caller of T intra-op threads
        way += f"-intra-op{record.threads}"
    return run_dir / f"sweep-{sweep['kind']}{width}" / f"{sweep['value']}{copies}{way}"


def write_record(run_dir: Path, record: Record, latencies: np.ndarray | None = None) -> Path:
    """Validate and atomically write ``record`` (and its latency samples) into the run."""
    folder = record_folder(run_dir, record)
    path = folder / f"{record.id}.json"
    if latencies is not None and latencies.size:
        buffer = io.BytesIO()
        np.savez_compressed(buffer, ns=latencies.astype("<i8"))
        name = record.id + LATENCIES_SUFFIX
        try:
            write_atomic(folder / name, buffer.getvalue())
        except OSError as exc:
            raise _results_error(folder / name, exc) from None
        record.latencies = name
    data = record.to_json()
    schema.check(data, str(path))
    write_json(path, data)
    record.path = path
    return path


def read_record(path: Path) -> Record:
    """One record file, checked against the schema (RunError naming the file if not)."""
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise RunError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    schema.check(data, str(path))
    return Record.from_json(data, path)


def _records(folder: Path) -> list[Record]:
    return [
        read_record(p)
        for p in sorted(folder.glob("*.json"))
        if p.name not in NOT_RECORDS and not p.name.startswith(".")
    ]


@dataclass
class Run:
    """A run folder read back: its environment and every record in it."""

    path: Path
    env: dict[str, Any]
    records: list[Record] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def host(self) -> str:
        return str(self.env.get("host") or "unknown host")

    @property
    def drivers(self) -> list[Record]:
        return [r for r in self.records if r.kind == "driver" and r.sweep is None]

    @property
    def kernels(self) -> list[Record]:
        return [r for r in self.records if r.kind == "kernel"]

    @property
    def sweeps(self) -> dict[str, dict[int, list[Record]]]:
        """Sweep kind -> value -> records, of the reference model: a batch point of a wider
        model (the GPU grid, its sweep naming a ``width``) is the CPU-or-GPU map's alone."""
        found: dict[str, dict[int, list[Record]]] = {}
        for r in self.records:
            if r.sweep is not None and not r.sweep.get("width"):
                found.setdefault(r.sweep["kind"], {}).setdefault(r.sweep["value"], []).append(r)
        return found

    def driver(self, driver_id: str) -> Record | None:
        return next((r for r in self.drivers if r.id == driver_id), None)


def load_run(path: Path) -> Run:
    """Every record of a run folder, sweeps included; RunError naming a bad file."""
    env_path = path / ENV_FILE
    if not env_path.is_file():
        raise RunError(f"{path}: not a run folder (no {ENV_FILE})")
    try:
        env = json.loads(env_path.read_text())
    except json.JSONDecodeError as exc:
        raise RunError(f"{env_path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    run = Run(path, env)
    run.records = _records(path)
    for folder in sorted(path.glob("sweep-*/*")):
        if folder.is_dir():
            run.records += _records(folder)
    return run


def latest_run(runs: Path = RUNS) -> Path | None:
    candidates = sorted(p for p in runs.glob("*") if p.is_dir() and (p / ENV_FILE).is_file())
    return candidates[-1] if candidates else None


def find_run(name: str, runs: Path = RUNS) -> Path:
    """A run folder given as a path or as a run id under ``runs``."""
    path = Path(name)
    if (path / ENV_FILE).is_file():
        return path
    if (runs / name / ENV_FILE).is_file():
        return runs / name
    raise RunError(f"{name}: no such run (neither a folder with {ENV_FILE} nor a run id in {runs})")
