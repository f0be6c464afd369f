"""Each chart renders from a small fixture run, and a sweep's chart draws one line a
language (its best row), a language's GPU rows a line of their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.text import Text

from callbench.records.record import Record
from callbench.registry import the_floor
from callbench.report import charts
from callbench.report.sections.counts import trend
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


def test_a_sweep_chart_draws_each_languages_best_row_that_ran_everywhere() -> None:
    # cpp-executorch-method is cheaper at width 8 but ran there alone: not C++'s line; the
    # floor is a line of its own, not a language's.
    assert charts.best_rows(widths(), "width") == {
        "C++": "cpp-onnxruntime-reuse",
        "Python": "python-onnxruntime-iobinding",
        charts.FLOOR_LINE: the_floor(),
    }


def test_a_languages_gpu_rows_are_a_line_of_their_own() -> None:
    points = widths()
    for width, records in points.items():
        records.append(driver("python-cuda-graph", [90_000] * 3, runtime="torch",
                              sweep={"kind": "width", "value": width},
                              notes={"device": "NVIDIA H200"}))  # fmt: skip
    best = charts.best_rows(points, "width")
    assert best["Python on GPU"] == "python-cuda-graph"
    assert best["Python"] == "python-onnxruntime-iobinding"


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


def test_the_scatters_labels_do_not_touch_and_its_legend_names_every_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Twenty rows doing nearly the same work at nearly the same time: their labels crowd.
    languages = ("Python", "C++", "Java", "Rust", "Go", "Node.js", "Kotlin")
    records = [driver(f"python-row-{n}", [1000 + 10 * n] * 3, language=languages[n % 7],
                      count=counted([10**6 + 10**4 * n] * 3, [2 * 10**6 + 2 * 10**4 * n] * 3))
               for n in range(20)]  # fmt: skip
    found = trend(records)
    assert found is not None
    seen: dict[str, object] = {}
    set_apart = charts.set_apart

    def spy(fig: Figure, ax: Axes, labels: list[Text], rounds: int = 20) -> None:
        set_apart(fig, ax, labels, rounds)
        seen["touching"] = charts.overlapping_labels(fig, labels)

    legend = charts._legend

    def named(shown: list[str]) -> list[Patch]:
        patches = legend(shown)
        seen["legend"] = [p.get_label() for p in patches]
        return patches

    monkeypatch.setattr(charts, "set_apart", spy)
    monkeypatch.setattr(charts, "_legend", named)
    charts.work_and_time(found, RUN, {r.id: r.language for r in records}, tmp_path / "w.png")
    assert seen["touching"] == []
    assert seen["legend"] == list(languages)
