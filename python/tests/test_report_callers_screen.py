"""The first screen's many callers: per language the best way from C callers, its scaling,
and what decides it, read from the run (threads against processes, a model shared against
one per caller, how far the calls scale), with what a caller costs in memory."""

from __future__ import annotations

from pathlib import Path

from callbench.report.sections import callers_screen, many_callers
from tests.test_report import ENV, driver, make_run, report
from tests.test_report_many_callers import row


def test_what_decides_is_read_from_the_runs_points() -> None:
    mb = 1_000_000
    threads = {
        1: [row("python-onnxruntime-iobinding", 1, 5.0, peak_rss_bytes=100 * mb),
            row("cpp-onnxruntime-reuse", 1, 2.0, language="C++", peak_rss_bytes=50 * mb),
            row("rust-tract-state", 1, 4.0, language="Rust", runtime="tract",
                peak_rss_bytes=20 * mb)],
        2: [row("python-onnxruntime-iobinding", 2, 4.8, peak_rss_bytes=110 * mb),
            row("cpp-onnxruntime-reuse", 2, 1.6, language="C++", peak_rss_bytes=55 * mb),
            row("cpp-onnxruntime-reuse-sessions", 2, 1.0, language="C++",
                peak_rss_bytes=80 * mb, notes={"callers_hold": "per caller"}),
            row("rust-tract-state", 2, 8.0, language="Rust", runtime="tract",
                peak_rss_bytes=30 * mb)],
    }  # fmt: skip
    processes = {2: [row("python-onnxruntime-iobinding", 2, 2.5, "processes",
                         peak_rss_bytes=200 * mb)]}  # fmt: skip
    every = many_callers.points(threads, processes)
    text = callers_screen.table(every, cores=2)
    lines = {line.split(" | ")[0].strip("| "): line for line in text.splitlines()[2:]}
    assert (
        "`python-onnxruntime-iobinding` in processes (a model per process) | 400,000 ["
        in (lines["Python"])
    )
    assert "processes beat threads 1.92× (" in lines["Python"]
    assert "the GIL holds the threads back; 100 MB a caller" in lines["Python"]
    assert "`cpp-onnxruntime-reuse-sessions` in threads (per caller) | 1,000,000 [" in lines["C++"]
    assert "a model per caller does 1.60× (" in lines["C++"]
    assert "a shared one's calls: a shared session's contention; 30 MB a caller" in lines["C++"]
    assert "2 callers do less than one (0.50× (" in lines["Rust"]


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
