"""Reading runs for the report: main records, sweeps and kernels, per host."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callbench.records import ENV_FILE


@dataclass
class Run:
    path: Path
    env: dict[str, Any]
    drivers: list[dict[str, Any]] = field(default_factory=list)
    kernels: list[dict[str, Any]] = field(default_factory=list)
    # sweep kind -> value -> records
    sweeps: dict[str, dict[int, list[dict[str, Any]]]] = field(default_factory=dict)

    @property
    def host(self) -> str:
        return str(self.env.get("host") or "unknown host")

    @property
    def name(self) -> str:
        return self.path.name


def _records(folder: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted(folder.glob("*.json")):
        if path.name == ENV_FILE or path.name.startswith("."):
            continue
        try:
            found.append(json.loads(path.read_text()))
        except json.JSONDecodeError:
            continue  # a record being written by a run in progress
    return found


def load(path: Path) -> Run:
    env_path = path / ENV_FILE
    env = json.loads(env_path.read_text()) if env_path.is_file() else {}
    run = Run(path, env)
    for record in _records(path):
        (run.kernels if record.get("kind") == "kernel" else run.drivers).append(record)
    for sweep_dir in sorted(path.glob("sweep-*")):
        kind = sweep_dir.name.removeprefix("sweep-")
        for value_dir in sweep_dir.iterdir():
            if value_dir.is_dir() and value_dir.name.isdigit():
                run.sweeps.setdefault(kind, {})[int(value_dir.name)] = _records(value_dir)
    return run
