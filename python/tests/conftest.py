"""Shared fixtures: a small exported artifact set, a driver run directly, and the harness
run as a user runs it (``callbench run``)."""

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

from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.records.store import load_run

SMALL_SAMPLES = 20_000
SMALL_WIDTH = "16"  # the small set's model family: one width, quick to fit


@dataclass
class HarnessRun:
    returncode: int
    stdout: str
    stderr: str
    run_dir: Path | None
    records: dict[str, Record] = field(default_factory=dict)
    env: dict[str, Any] = field(default_factory=dict)


def run_module(
    module: str, *args: str, timeout: float = 900, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True, text=True, timeout=timeout, check=False,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip


def run_driver(
    spec: DriverSpec, *args: str, stdin: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """A registered driver run directly, as the harness would start it."""
    return subprocess.run(
        [*spec.command(), *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, check=False,
        env={**os.environ, **spec.env()},
    )  # fmt: skip


@pytest.fixture(scope="session")
def small_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly exported artifact set with 20,000 samples and a family of one width, 16
    (read-only for tests)."""
    out = tmp_path_factory.mktemp("models")
    done = run_module("callbench.model.export", "--out", str(out), "--samples", str(SMALL_SAMPLES),
                      "--widths", SMALL_WIDTH)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def models_copy(small_models: Path, tmp_path: Path) -> Path:
    """A private copy of the small artifact set, for tests that damage it."""
    return Path(shutil.copytree(small_models, tmp_path / "models"))


@pytest.fixture
def run_harness(small_models: Path, tmp_path: Path) -> Callable[..., HarnessRun]:
    """Run ``callbench run`` on the small models, into a private runs folder.

    Pass ``--models DIR`` among the arguments to use other artifacts.
    """
    runs = tmp_path / "runs"

    def run(*args: str, timeout: float = 900, env: dict[str, str] | None = None) -> HarnessRun:
        models = [] if "--models" in args else ["--models", str(small_models)]
        done = run_module(
            "callbench.cli", "run", "--runs-dir", str(runs), *models, *args,
            timeout=timeout, env=env,
        )  # fmt: skip
        dirs = sorted(p for p in runs.glob("*") if p.is_dir()) if runs.exists() else []
        result = HarnessRun(done.returncode, done.stdout, done.stderr, dirs[-1] if dirs else None)
        if result.run_dir is not None and (result.run_dir / "env.json").is_file():
            loaded = load_run(result.run_dir)
            result.env = loaded.env
            result.records = {r.id: r for r in loaded.drivers}
            for sweep in loaded.sweeps.values():
                for value, records in sweep.items():
                    result.records.update({f"{r.id}@{value}": r for r in records})
        return result

    return run


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def require_tool(name: str) -> None:
    if shutil.which(name) is None:
        pytest.skip(f"{name} not installed")


def require_available(spec: DriverSpec) -> None:
    reason = spec.available()
    if reason is not None:
        pytest.skip(f"{spec.id} cannot run here: {reason}")


def resign(models: Path, name: str) -> None:
    """Record a damaged file's new size and sha256 in the manifest, so the
    harness's own check passes and the damage reaches the driver itself."""
    from callbench.model import artifacts as art

    path = models / art.MANIFEST
    manifest = json.loads(path.read_text())
    manifest["files"][name]["bytes"] = (models / name).stat().st_size
    manifest["files"][name]["sha256"] = art.sha256_of(models / name)
    path.write_text(json.dumps(manifest, indent=2))


def assert_verified(run: HarnessRun, ids: list[str], *, rounds: int, batch: int) -> None:
    """Every driver in ``ids`` ran ok, its outputs checked against the reference."""
    from callbench.harness.options import ATOL

    assert run.returncode == 0, run.stderr
    for driver_id in ids:
        record = run.records[driver_id]
        assert record.status == "ok", (driver_id, record.error)
        assert record.max_abs_error is not None and record.max_abs_error <= ATOL
        assert len({r.index for r in record.rounds}) == rounds
        assert record.batch == batch
        assert record.runtime_version
