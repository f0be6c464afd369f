"""The first screen's many callers: per language the best way from C callers, its scaling,
and what decides it, read from the run (threads against processes, a model shared against
one per caller, how far the calls scale), with what a caller costs in memory."""

from __future__ import annotations

from pathlib import Path

from callbench.report.sections import callers_screen, many_callers
from tests.test_report import ENV, driver, make_run, report
from tests.test_report_many_callers import row


def test_what_decides_is_read_from_the_runs_points() -> None:
    """Each reading stands on a figure: the GIL on threads that left a core idle, a shared
    session's contention on the two holdings, a lock or the cores on the cores busy; where
    2 callers do less than one, the answer is one caller."""
    mb = 1_000_000
    threads = {
        1: [row("python-onnxruntime-iobinding", 1, 5.0, busy=1.0, peak_rss_bytes=100 * mb),
            row("cpp-onnxruntime-reuse", 1, 2.0, busy=1.0, language="C++",
                peak_rss_bytes=50 * mb),
            row("rust-tract-state", 1, 4.0, busy=1.0, language="Rust", runtime="tract",
                peak_rss_bytes=20 * mb),
            row("go-onnxruntime", 1, 4.0, busy=1.0, language="Go", peak_rss_bytes=40 * mb),
            row("java-onnxruntime", 1, 4.0, busy=1.0, language="Java", peak_rss_bytes=200 * mb,
                notes={"callers_hold": "shared", "jvm_heap_committed_bytes": 60 * mb,
                       "jvm_heap_live_bytes": 5 * mb})],
        2: [row("python-onnxruntime-iobinding", 2, 4.8, busy=1.2, peak_rss_bytes=110 * mb),
            row("cpp-onnxruntime-reuse", 2, 1.6, busy=1.8, language="C++",
                peak_rss_bytes=55 * mb),
            row("cpp-onnxruntime-reuse-sessions", 2, 1.0, busy=2.0, language="C++",
                peak_rss_bytes=80 * mb, notes={"callers_hold": "per caller"}),
            row("rust-tract-state", 2, 8.0, busy=1.0, language="Rust", runtime="tract",
                peak_rss_bytes=30 * mb),
            row("go-onnxruntime", 2, 5.0, busy=2.0, language="Go", peak_rss_bytes=60 * mb),
            row("java-onnxruntime", 2, 1.0, busy=1.9, language="Java", peak_rss_bytes=192 * mb,
                notes={"callers_hold": "shared", "jvm_heap_committed_bytes": 50 * mb,
                       "jvm_heap_live_bytes": 6 * mb})],
    }  # fmt: skip
    processes = {2: [row("python-onnxruntime-iobinding", 2, 2.5, "processes", busy=2.0,
                         peak_rss_bytes=200 * mb)]}  # fmt: skip
    every = many_callers.points(threads, processes)
    text = callers_screen.table(every, cores=2)
    lines = {line.split(" | ")[0].strip("| "): line for line in text.splitlines()[2:]}
    python = lines["Python"]
    assert "`python-onnxruntime-iobinding` in processes (a model per process) | 400,000 [" in python
    assert "processes beat threads 1.92× (" in python
    assert ("the GIL holds the threads back (2 callers keep 1.2 cores busy); 100 MB a caller"
            in python)  # fmt: skip
    cpp = lines["C++"]
    assert "`cpp-onnxruntime-reuse-sessions` in threads (per caller) | 1,000,000 [" in cpp
    assert "a shared session's contention (a model per caller does 1.60× (" in cpp
    assert "2 callers keep 1.8 cores busy); 30 MB a caller" in cpp
    # Less than one caller: the answer is one caller, and the cores busy say why.
    rust = lines["Rust"]
    assert "one caller: `rust-tract-state` (2 callers do 0.50× (" in rust and "| 250,000 [" in rust
    assert "a lock: 2 callers keep 1.0 cores busy of 2, 0.50× (" in rust
    go = lines["Go"]
    assert "the cores: 2 callers keep 2.0 cores busy and each call takes 2.5× one caller's" in go
    # Two JVMs' peaks: 8 MB less at 2 callers, said signed and within the noise.
    java = lines["Java"]
    assert "calls run side by side: 4.00× (" in java and "2 callers keep 1.9 cores busy" in java
    assert ("-8 MB a caller (within the noise: ±5% of one caller's peak) (the JVM's heap "
            "committed -10 MB, live heap 1 MB a caller)") in java  # fmt: skip


def test_without_cpu_times_no_line_blames_a_lock_or_the_cores() -> None:
    threads = {1: [row("rust-tract-state", 1, 4.0, language="Rust", runtime="tract")],
               2: [row("rust-tract-state", 2, 8.0, language="Rust", runtime="tract")]}  # fmt: skip
    said = callers_screen.table(many_callers.points(threads, None), cores=2)
    assert "no CPU time to tell a lock from full cores" in said
    assert "the cores:" not in said and "a lock:" not in said


def test_a_second_hosts_callers_stand_beside_this_machines_hosts_told_apart(
    tmp_path: Path,
) -> None:
    """A GPU host's ``gpu_host_run.py --callers`` (faked: 16 cores, its Python rows at 1, 16
    and 32 callers) beside this machine's 2 cores, each under its own machine and run."""
    here = [row("python-onnxruntime-iobinding", 1, 5.0),
            row("python-onnxruntime-iobinding", 2, 4.8),
            row("python-onnxruntime-iobinding", 2, 2.5, "processes")]  # fmt: skip
    there = [row("python-onnxruntime-iobinding", 1, 4.0),
             row("python-onnxruntime-iobinding", 16, 3.9),
             row("python-onnxruntime-iobinding", 16, 0.5, "processes"),
             row("python-onnxruntime-iobinding", 32, 0.45, "processes")]  # fmt: skip
    first = make_run(tmp_path / "20261202T010000Z-vm-aaaaaa",
                     [driver("python-numpy", [5000] * 3), *here])  # fmt: skip
    second = make_run(tmp_path / "20261202T020000Z-gpu-bbbbbb",
                      [driver("python-numpy", [4000] * 3), *there],
                      env={**ENV, "host": "gpu", "cores": 16, "cpu": "Big CPU",
                           "cuda_device": "NVIDIA H200"})  # fmt: skip
    text = report(tmp_path, first, second)
    side = text.split("### Many callers on each host", 1)[1]
    assert "Test CPU, 2 cores, run `20261202T010000Z-vm-aaaaaa`:" in side
    assert "Big CPU, GPU NVIDIA H200, 16 cores, run `20261202T020000Z-gpu-bbbbbb`:" in side
    assert "| best way from 2 callers |" in side and "| best way from 16 callers |" in side
    # 16 processes: 2,000,000 calls a second, 8× one caller's.
    assert "in processes (a model per process) | 2,000,000 [" in side and "| 8.00× (" in side
    # Each host's own callers section too, under its name.
    assert text.count("## Many callers — ") == 2
