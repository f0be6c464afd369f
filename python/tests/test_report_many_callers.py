"""The report's "Many callers": throughput with its interval, scaling against one caller,
threads against processes said only where the intervals are apart and beyond the noise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.records.record import Record
from callbench.report import charts
from callbench.report.sections import many_callers
from tests.test_report import driver


def row(driver_id: str, n: int, us: float, way: str = "threads", busy: float | None = None,
        **fields: Any) -> Record:  # fmt: skip
    """A point of N callers at ``us`` a call together; ``busy``: the cores its callers kept
    busy in every round (its rounds' CPU time), None: no CPU time recorded."""
    sweep = {"kind": "callers" if way == "threads" else "processes", "value": n}
    spread = [us * (1 + 0.002 * i) for i in range(-10, 11)]  # 21 rounds, 2% apart end to end
    values = {"runtime": "onnxruntime", "notes": {"callers_hold": "shared"}} | fields
    record = driver(driver_id, [x * 1000 for x in spread], sweep=sweep, callers=n,
                    processes=n if way == "processes" else 1, **values)  # fmt: skip
    for r in record.rounds:
        r.cpu_ns = int(busy * r.ns) if busy is not None else None
    return record


def test_processes_beat_threads_where_the_gil_holds_the_threads(tmp_path: Path) -> None:
    # One caller: 5 µs a call. Two threads take turns (2.6 µs a call together); two
    # processes run side by side (2.5 µs a call together: twice one caller's calls).
    threads = {1: [row("python-onnxruntime-iobinding", 1, 5.0)],
               2: [row("python-onnxruntime-iobinding", 2, 4.8)]}  # fmt: skip
    processes = {2: [row("python-onnxruntime-iobinding", 2, 2.5, "processes")]}
    text = many_callers.section(threads, processes, cores=2)
    answer = text.split("### The answer at N = 2 (the cores)")[1].split("|")[0]
    best = "`python-onnxruntime-iobinding` in processes (a model per process): 400,000 calls"
    assert best in answer
    assert "2.00× (" in answer and "(more than one caller)" in answer
    assert "processes beat threads (`python-onnxruntime-iobinding`) by 1.92×" in answer
    assert "| `python-onnxruntime-iobinding` | 2 | threads | shared | 208,333 [" in text
    assert "| 1.04× (" in text  # two threads against one caller: a gain within the noise
    every = many_callers.points(threads, processes)
    lines = many_callers.lines(every, cores=2)
    # The processes line starts at the row's one caller, as the threads' does.
    assert [p.n for p in lines[("Python", "processes")]] == [1, 2]
    assert charts.many_callers(lines, "run", tmp_path / "c.png") == tmp_path / "c.png"


def test_two_ways_within_the_noise_are_not_called_apart() -> None:
    threads = {1: [row("cpp-onnxruntime-reuse", 1, 2.0, language="C++")],
               2: [row("cpp-onnxruntime-reuse", 2, 1.05, language="C++")]}  # fmt: skip
    processes = {2: [row("cpp-onnxruntime-reuse", 2, 1.0, "processes", language="C++")]}
    text = many_callers.section(threads, processes, cores=2)
    assert "are not apart beyond the noise" in text
    assert many_callers.section({}, None, cores=2).startswith("No point of the callers sweep")


def test_a_callers_only_row_scales_against_its_runtimes_row_at_one_caller() -> None:
    threads = {1: [row("cpp-onnxruntime-reuse", 1, 2.0, language="C++")],
               2: [row("cpp-onnxruntime-reuse-sessions", 2, 1.0, language="C++")]}  # fmt: skip
    text = many_callers.section(threads, None, cores=2)
    assert "| `cpp-onnxruntime-reuse-sessions` | 2 | threads | shared | 1,000,000 [" in text
    assert "| 2.00× (" in text


def test_a_runtime_default_twin_is_read_against_its_row_at_each_n() -> None:
    """The twin keeping ExecuTorch's shared workspace, at 2 callers, against its row."""
    from callbench.report.sections import callers_screen, runtime_defaults

    per_caller = {"callers_hold": "per caller"}
    kept = per_caller | {"callers_how": "XNNPACK's workspace shared by all"}
    threads = {1: [row("cpp-executorch-method", 1, 1.0, language="C++", runtime="executorch",
                       notes=per_caller)],
               2: [row("cpp-executorch-method", 2, 0.5, language="C++", runtime="executorch",
                       notes=per_caller),
                   row("cpp-executorch-method-shared-workspace", 2, 2.0, language="C++",
                       runtime="executorch", notes=kept)]}  # fmt: skip
    every = many_callers.points(threads, None)
    lines = runtime_defaults.lines(every)
    assert len(lines) == 1 and lines[0].startswith("- `cpp-executorch-method` does 4.00× (")
    assert lines[0].endswith(
        "the calls of `cpp-executorch-method-shared-workspace` at 2 callers "
        "(the default costs); the twin: XNNPACK's workspace shared by all."
    )
    text = many_callers.section(threads, None, cores=2, defaults=lines)
    assert "### What each runtime's default set-up costs" in text and lines[0] in text
    best = max((p for p in every if p.n == 2), key=lambda p: p.calls_per_s)
    said = callers_screen.deciding(best, every, cores=2)
    assert "a model per caller" not in said and "calls run side by side" in said, said
