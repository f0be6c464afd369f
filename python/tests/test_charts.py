"""Each chart renders from a small fixture run, and the width chart keeps each language's
cheapest runtime and the floor only."""

from __future__ import annotations

from pathlib import Path

from callbench.records.record import Record
from callbench.registry import the_floor
from callbench.report import charts
from callbench.report.counts import trend
from tests.test_report import counted, driver

RUN = "20261126T000000Z-test-000000"


def widths() -> dict[int, list[Record]]:
    points: dict[int, list[Record]] = {}
    for width, scale in ((8, 1), (64, 3), (512, 30)):
        points[width] = [
            driver(the_floor(), [20 * scale**2] * 3, language="C++", runtime="handwritten",
                   sweep={"kind": "width", "value": width}),
            driver("cpp-onnxruntime-reuse", [2000 * scale] * 3, language="C++",
                   runtime="onnxruntime", sweep={"kind": "width", "value": width}),
            driver("cpp-libtorch", [6000 * scale] * 3, language="C++", runtime="libtorch",
                   sweep={"kind": "width", "value": width}),
            driver("python-onnxruntime-iobinding", [4000 * scale] * 3, runtime="onnxruntime",
                   sweep={"kind": "width", "value": width}),
        ]  # fmt: skip
    # At width 8 only: not a line, so not a language's cheapest either.
    points[8].append(driver("cpp-executorch-method", [600] * 3, language="C++",
                            runtime="executorch", sweep={"kind": "width", "value": 8}))  # fmt: skip
    return points


def test_the_width_chart_keeps_each_languages_cheapest_runtime_and_the_floor() -> None:
    assert charts.width_drivers(widths()) == {the_floor(), "cpp-onnxruntime-reuse",
                                              "python-onnxruntime-iobinding"}  # fmt: skip


def test_every_chart_renders(tmp_path: Path) -> None:
    ids = ("python-numpy", "python-onnxruntime", "python-eager")
    records = [driver(s, [1000 * (n + 1)] * 3,
                      count=counted([10**6 * (n + 1)] * 3, [2 * 10**6 * (n + 1) + 7] * 3))
               for n, s in enumerate(ids)]  # fmt: skip
    made = [
        charts.per_call(records, RUN, tmp_path / "per-call.png"),
        charts.sweep(widths(), "width", RUN, tmp_path / "width.png"),
        charts.sweep({1: records, 2: records}, "threads", RUN, tmp_path / "threads.png"),
        charts.sweep({1: records, 100: records}, "batch", RUN, tmp_path / "batch.png"),
    ]
    found = trend(records)
    assert found is not None
    made.append(charts.work_and_time(found, RUN, {r.id: r.language for r in records},
                                     tmp_path / "work.png"))  # fmt: skip
    for path in made:
        assert path is not None and path.read_bytes().startswith(b"\x89PNG"), path
