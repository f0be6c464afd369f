"""The GPU rows beside the platform's per-call floor (``cpp-cuda-floor``), from fixture
records: each GPU row's "× the floor" at its batch, the floor on neither side of the CPU or
GPU choice, and no section without a verified floor."""

from __future__ import annotations

from pathlib import Path

from callbench.records.record import Record
from callbench.report.sections import cpu_or_gpu, gpu_floor
from tests.test_report import driver, make_run, report

# µs per call at batch 1 and 16: the kernel 1.25× the floor, the graph 0.9× (it launches
# once where the floor makes three calls), CuPy's row twice.
PER_CALL = {"cpp-cuda-floor": 10_000.0, "cpp-cuda-kernel": 12_500.0, "cpp-cuda-graph": 9_000.0,
            "python-cupy-kernel": 20_000.0}  # fmt: skip


def gpu_records() -> list[Record]:
    records = []
    for batch in (1, 16):
        for driver_id, ns in PER_CALL.items():
            rounds = [ns * batch**0.1 * (1 + 0.01 * k) for k in range(5)]
            records.append(driver(driver_id, rounds, language="C++", batch=batch,
                                  sweep={"kind": "batch", "value": batch}))  # fmt: skip
    records.append(driver("cpp-handwritten", [900.0] * 5, language="C++", batch=16,
                          sweep={"kind": "batch", "value": 16}))  # fmt: skip
    return records


def cells(text: str, batch: str, driver_id: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {batch} | `{driver_id}`"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_each_gpu_row_is_given_as_a_multiple_of_the_floor_at_its_batch() -> None:
    text = gpu_floor.section(gpu_records())
    assert cells(text, "1", "cpp-cuda-floor")[-1] == "1 (the floor)"
    assert cells(text, "1", "cpp-cuda-kernel")[-1] == "1.25× (1.25–1.25)"
    assert cells(text, "16", "cpp-cuda-graph")[-1] == "0.90× (0.90–0.90)"
    assert cells(text, "16", "python-cupy-kernel")[-1] == "2.00× (2.00–2.00)"
    # CPU rows are not GPU rows: none is set beside the floor.
    assert "cpp-handwritten" not in text


def test_a_run_without_a_verified_floor_has_no_section() -> None:
    records = [r for r in gpu_records() if r.id != "cpp-cuda-floor"]
    assert gpu_floor.section(records) == ""


def test_the_floor_is_on_neither_side_of_the_cpu_or_gpu_choice() -> None:
    """It costs least, but computes nothing: the best GPU row at batch 16 is the graph."""
    cheap = [driver("cpp-cuda-floor", [1.0] * 5, batch=16, sweep={"kind": "batch", "value": 16})]
    (crossing,) = cpu_or_gpu.decision_map([*gpu_records(), *cheap])
    assert crossing.gpu.id == "cpp-cuda-graph" and crossing.cpu.id == "cpp-handwritten"
    (point,) = cpu_or_gpu.by_batch([*gpu_records(), *cheap])
    assert point.gpu.id == "cpp-cuda-graph"


def test_the_report_has_the_section_beside_the_cpu_or_gpu_one(tmp_path: Path) -> None:
    text = report(tmp_path, make_run(tmp_path / "gpu-host", gpu_records()))
    assert text.index(f"## {cpu_or_gpu.TITLE}") < text.index(f"## {gpu_floor.TITLE}")
    section = text.split(f"## {gpu_floor.TITLE}")[1]
    assert "| batch | GPU row | µs per call | 95% interval | × the floor |" in section
