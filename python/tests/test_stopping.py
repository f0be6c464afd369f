"""Stopping a run: Ctrl-C, SIGTERM to the harness or to the program that started it
(nox, as `timeout` sends it) ends every process of the run and keeps the records."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from callbench.records.store import load_run
from tests.conftest import run_module

DRIVERS = ("--only", "python-numpy", "--only", "python-onnxruntime")


def processes_mentioning(text: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmdline:
            found.append(cmdline)
    return found


def wait_for_rounds(runs: Path, stdout_path: Path, timeout: float = 300) -> None:
    """Until the run has timed its first round (so drivers are loaded and running)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if "round 1/" in stdout_path.read_text():
            return
        time.sleep(0.2)
    raise AssertionError(f"no round started: {stdout_path.read_text()[-2000:]}")


def start_run(models: Path, tmp_path: Path, wrapper: bool) -> tuple[subprocess.Popen[bytes], Path]:
    runs = tmp_path / "runs"
    out = tmp_path / "stdout"
    command = [sys.executable, "-m", "callbench.cli", "run", "--models", str(models),
               "--runs-dir", str(runs), *DRIVERS, "--calls", "2000", "--rounds", "100000",
               "--warmup", "10"]  # fmt: skip
    if wrapper:  # a parent that, like nox, dies on SIGTERM without passing it on
        command = [sys.executable, "-c", "import subprocess, sys; subprocess.call(sys.argv[1:])",
                   *command]  # fmt: skip
    with out.open("wb") as sink:
        child = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.PIPE, preexec_fn=interruptible
        )
    return child, out


def interruptible() -> None:
    """Ctrl-C as in a terminal: a test run started with `&` from a script ignores SIGINT,
    and its children would inherit that (Python keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("wrapper", "sig"),
    [
        (False, signal.SIGTERM),
        (False, signal.SIGHUP),
        (False, signal.SIGINT),
        (True, signal.SIGTERM),
    ],
    ids=["sigterm-harness", "sighup-harness", "ctrl-c-harness", "sigterm-parent"],
)
def test_a_signal_ends_every_process_and_keeps_the_records(
    models_copy: Path, tmp_path: Path, wrapper: bool, sig: signal.Signals
) -> None:
    child, out = start_run(models_copy, tmp_path, wrapper)
    try:
        wait_for_rounds(tmp_path / "runs", out)
        child.send_signal(sig)
        _, stderr = child.communicate(timeout=60)
        deadline = time.monotonic() + 30
        while processes_mentioning(str(models_copy)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_mentioning(str(models_copy)) == []
    finally:
        child.kill()
    if not wrapper:
        assert child.returncode == 128 + sig, stderr
        text = stderr.decode()
        assert f"stopped by {sig.name}" in text and "records kept" in text
        assert "Traceback" not in text
    [run_dir] = list((tmp_path / "runs").iterdir())
    records = {r.id: r for r in load_run(run_dir).drivers}
    for driver_id in ("python-numpy", "python-onnxruntime"):
        record = records[driver_id]
        assert record.status == "failed" and "interrupted" in str(record.error)
        assert record.rounds, "the rounds timed before the signal are kept"
    assert not [p for p in run_dir.iterdir() if p.name.startswith(".")]


def test_an_unwritable_results_folder_is_one_line(small_models: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("a file where the folder should be")
    done = run_module("callbench.cli", "run", "--models", str(small_models),
                      "--runs-dir", str(blocker / "runs"), "--only", "python-numpy")  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write results" in lines[0] and str(blocker) in lines[0]
