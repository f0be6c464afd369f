"""Shared fixtures: a small exported artifact set, and the harness run as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SMALL_SAMPLES = 20_000


@dataclass
class HarnessRun:
    returncode: int
    stdout: str
    stderr: str
    run_dir: Path | None
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    env: dict[str, Any] = field(default_factory=dict)


def run_module(
    module: str, *args: str, timeout: float = 900, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True, text=True, timeout=timeout, check=False,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip


@pytest.fixture(scope="session")
def small_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly exported artifact set with 20,000 samples (read-only for tests)."""
    out = tmp_path_factory.mktemp("models")
    done = run_module("callbench.export", "--out", str(out), "--samples", str(SMALL_SAMPLES))
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def models_copy(small_models: Path, tmp_path: Path) -> Path:
    """A private copy of the small artifact set, for tests that damage it."""
    return Path(shutil.copytree(small_models, tmp_path / "models"))


@pytest.fixture
def run_harness(small_models: Path, tmp_path: Path) -> Callable[..., HarnessRun]:
    """Run ``python -m callbench.harness`` on the small models, into a private runs dir.

    Pass ``--models DIR`` among the arguments to use other artifacts.
    """
    runs = tmp_path / "runs"

    def run(*args: str, timeout: float = 900, env: dict[str, str] | None = None) -> HarnessRun:
        models = [] if "--models" in args else ["--models", str(small_models)]
        done = run_module(
            "callbench.harness", "--runs-dir", str(runs), *models, *args, timeout=timeout, env=env
        )
        dirs = sorted(p for p in runs.glob("*") if p.is_dir()) if runs.exists() else []
        result = HarnessRun(done.returncode, done.stdout, done.stderr, dirs[-1] if dirs else None)
        if result.run_dir is not None:
            for path in result.run_dir.glob("*.json"):
                data = json.loads(path.read_text())
                if path.name == "env.json":
                    result.env = data
                else:
                    result.records[data["driver"]] = data
        return result

    return run


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def require_tool(name: str) -> None:
    if shutil.which(name) is None:
        pytest.skip(f"{name} not installed")


def resign(models: Path, name: str) -> None:
    """Record a damaged file's new size and sha256 in the manifest, so the
    harness's own check passes and the damage reaches the driver itself."""
    from callbench import artifacts as art

    path = models / art.MANIFEST
    manifest = json.loads(path.read_text())
    manifest["files"][name]["bytes"] = (models / name).stat().st_size
    manifest["files"][name]["sha256"] = art.sha256_of(models / name)
    path.write_text(json.dumps(manifest, indent=2))


def assert_verified(run: HarnessRun, ids: list[str], *, repeats: int, batch: int) -> None:
    """Every driver in ``ids`` ran ok, its outputs checked against the reference."""
    from callbench.harness import ATOL

    assert run.returncode == 0, run.stderr
    for driver_id in ids:
        record = run.records[driver_id]
        assert record["status"] == "ok", (driver_id, record["error"])
        assert record["max_abs_error"] <= ATOL
        assert len(record["per_call_ns"]) == repeats
        assert record["batch"] == batch
        assert record["runtime_version"]
