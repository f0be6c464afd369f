"""Crashes, hangs and Ctrl-C: recorded as failed, nothing else lost."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from callbench import artifacts as art
from callbench.catalogue import DriverSpec
from callbench.harness import RunOptions, run_driver


def fake(code: str) -> DriverSpec:
    return DriverSpec("python-fake", "Python", "none", art.INPUTS,
                      command=lambda: [sys.executable, "-c", code])  # fmt: skip


def reference(models: Path) -> np.ndarray:
    return art.read_reference(models)


def test_a_crashing_driver_is_recorded_as_failed_with_its_signal(small_models: Path) -> None:
    spec = fake("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    record = run_driver(
        spec, RunOptions(models=small_models, calls=10), reference(small_models), "t"
    )
    assert record["status"] == "failed"
    assert "SIGSEGV" in record["error"]


def test_a_hanging_driver_is_killed_at_its_time_limit(small_models: Path) -> None:
    spec = fake("import time; time.sleep(60)")
    options = RunOptions(models=small_models, calls=10, timeout=1.0)
    started = time.monotonic()
    record = run_driver(spec, options, reference(small_models), "t")
    assert time.monotonic() - started < 30
    assert record["status"] == "failed" and "time limit" in record["error"]


def test_a_driver_that_prints_garbage_is_failed(small_models: Path) -> None:
    record = run_driver(fake("print('hello')"), RunOptions(models=small_models, calls=10),
                        reference(small_models), "t")  # fmt: skip
    assert record["status"] == "failed" and "not JSON" in record["error"]


def test_wrong_outputs_never_count(small_models: Path, tmp_path: Path) -> None:
    """A driver that reports a time but writes zeros is failed, its time dropped."""
    code = (
        "import sys, json, numpy as np; a = sys.argv; "
        "np.zeros(10, np.float32).tofile(a[a.index('--outputs') + 1]); "
        "print(json.dumps({'repeat_ns': [1000], 'load_ns': 1}))"
    )
    record = run_driver(fake(code), RunOptions(models=small_models, calls=10, repeats=1),
                        reference(small_models), "t")  # fmt: skip
    assert record["status"] == "failed" and "differ from reference.f32" in record["error"]
    assert record["per_call_ns"] == []


def test_ctrl_c_keeps_the_records_already_written(small_models: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    child = subprocess.Popen(
        [sys.executable, "-m", "callbench.harness", "--models", str(small_models),
         "--runs-dir", str(runs), "--only", "python-onnxruntime-iobinding",
         "--only", "python-numpy", "--calls", "20000", "--repeats", "200"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    first = None
    while time.monotonic() < deadline and first is None:
        found = list(runs.glob("*/python-onnxruntime-iobinding.json")) if runs.exists() else []
        first = found[0] if found else None
        time.sleep(0.2)
    assert first is not None, "the first driver never finished"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130
    assert "Traceback" not in stderr and "records kept" in stderr
    kept = {p.name: json.loads(p.read_text()) for p in first.parent.glob("*.json")}
    assert kept["python-onnxruntime-iobinding.json"]["status"] == "ok"
    assert kept["python-numpy.json"]["status"] == "failed"
    assert kept["python-numpy.json"]["error"] == "interrupted by the user"
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".")]


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "callbench.harness", "--models", str(tmp_path / "none"),
            "--runs-dir", str(tmp_path / "runs")]  # fmt: skip
    quiet = subprocess.run(args, capture_output=True, text=True, check=False)
    loud = subprocess.run([*args, "--debug"], capture_output=True, text=True, check=False)
    assert quiet.returncode == loud.returncode == 1
    assert "Traceback" not in quiet.stderr and "Traceback" in loud.stderr
