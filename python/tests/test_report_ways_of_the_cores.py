"""The report's "How best to use the cores": C callers, C intra-op threads and batching in
samples a second, the winner named only where it is apart from the next way."""

from __future__ import annotations

from typing import Any

from callbench.records.record import Record
from callbench.report.sections import ways_of_the_cores
from tests.test_report import driver


def point(driver_id: str, kind: str, value: int, us: float, batch: int = 1, **fields: Any
          ) -> Record:  # fmt: skip
    spread = [us * (1 + 0.002 * i) for i in range(-5, 6)]  # 11 rounds, 2% apart end to end
    return driver(driver_id, [x * 1000 for x in spread], sweep={"kind": kind, "value": value},
                  batch=batch, runtime="onnxruntime", notes={"callers_hold": "shared"},
                  **fields)  # fmt: skip


def test_batching_wins_where_it_is_apart_and_each_way_says_what_it_asks() -> None:
    row = "python-onnxruntime-iobinding"
    sweeps = {
        "callers": {1: [point(row, "callers", 1, 5.0)], 2: [point(row, "callers", 2, 4.8)]},
        "processes": {2: [point(row, "processes", 2, 2.5, processes=2)]},
        "intra-op": {2: [point(row, "intra-op", 2, 4.9, threads=2)]},
        # Batch 2: 6 µs a call (3 µs a sample); the batch sweep's best, 10,000 samples in
        # 2 ms (0.2 µs a sample), from the batch sweep itself.
        "batching": {2: [point(row, "batching", 2, 6.0, batch=2)]},
        "batch": {10_000: [point(row, "batch", 10_000, 2000.0, batch=10_000)]},
    }
    text = ways_of_the_cores.section(sweeps, cores=2)
    assert text is not None
    table = text[text.index("| language |") :]
    assert (
        "| Python | 1 caller, 1 thread, batch 1 | `python-onnxruntime-iobinding` | 200,000 ["
        in table
    )
    assert "| Python | 2 callers in processes |" in table and "2 copies of the program" in table
    assert "| Python | 2 callers in threads |" in table and "the model shared" in table
    assert "| Python | 1 caller, 2 intra-op threads |" in table
    assert "| Python | 1 caller batching 2 | `python-onnxruntime-iobinding` | 333,333 [" in table
    assert (
        "| Python | 1 caller batching 10,000 | `python-onnxruntime-iobinding` | 5,000,000 ["
        in table
    )
    assert "| 25.0× (" in table  # batching 10,000 against one caller, in samples a second
    # The winner and what it asks; then its ratio over the next way (processes: 400,000).
    assert "**1 caller batching 10,000** wins: 5,000,000 samples a second, 12.5× (" in text
    assert "the next way's (2 callers in processes); it asks a queue that gathers 10,000" in text


def test_ways_within_the_noise_name_no_winner() -> None:
    row = "cpp-onnxruntime-reuse"
    sweeps = {
        "callers": {1: [point(row, "callers", 1, 2.0, language="C++")],
                    2: [point(row, "callers", 2, 1.0, language="C++")]},
        "intra-op": {2: [point(row, "intra-op", 2, 1.02, threads=2, language="C++")]},
    }  # fmt: skip
    text = ways_of_the_cores.section(sweeps, cores=2)
    assert text is not None
    assert ("- **C++**: 2 callers in threads and 1 caller, 2 intra-op threads are not apart "
            "beyond the noise (") in text  # fmt: skip
    assert ("): 1 caller, 2 intra-op threads asks less of the program (nothing: one option "
            "when the model is loaded)") in text  # fmt: skip
    assert ways_of_the_cores.section({"callers": sweeps["callers"]}, cores=2) is None
