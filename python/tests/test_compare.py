"""`callbench compare` and the report's verdicts on the compiled PyTorch paths, from
synthetic runs (chosen per-round figures): each test knows what must be said."""

from __future__ import annotations

from pathlib import Path

from callbench.cli.compare import compare_runs
from tests.test_report import driver, make_run, report


def lines_of(text: str, driver_id: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(driver_id + " "))


def test_compare_marks_changes_beyond_the_noise_and_ratios_between_drivers(
    tmp_path: Path,
) -> None:
    a = make_run(tmp_path / "a", [driver("python-numpy", [5000, 5010, 4990, 5005, 4995]),
                                  driver("python-eager", [20000, 20100, 19900, 20050, 19950]),
                                  driver("python-cffi", [200, 201, 199, 200, 200])])  # fmt: skip
    # B: the whole machine 10% slower, and python-cffi 30% slower on top of that.
    b = make_run(tmp_path / "b", [driver("python-numpy", [5500, 5511, 5489, 5505, 5495]),
                                  driver("python-eager", [22000, 22110, 21890, 22055, 21945]),
                                  driver("python-cffi", [286, 287, 285, 286, 286])])  # fmt: skip
    text = compare_runs(a, b)
    assert "slower by 10%" in lines_of(text, "python-numpy")
    assert "slower by 43%" in lines_of(text, "python-cffi")
    between = text.splitlines()[-1]
    assert between.startswith("ratios between drivers")
    assert "2 of 3 within ±5%" in between
    assert between.index("python-cffi") < between.index("python-numpy")  # widest first


def test_compare_says_which_run_lacks_a_driver(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", [driver("python-numpy", [5000] * 3)])
    b = make_run(tmp_path / "b", [driver("python-numpy", [5000] * 3),
                                  driver("python-cffi", [200] * 3)])  # fmt: skip
    text = compare_runs(a, b)
    assert lines_of(text, "python-cffi").endswith("not ok in A")
    assert "no change beyond the noise" in lines_of(text, "python-numpy")
    assert "1 of 1" not in text and "fewer than two drivers in common" in text


def test_the_report_says_whether_the_compiled_paths_beat_onnxruntime_in_cpp(
    tmp_path: Path,
) -> None:
    cpp = {"language": "C++"}
    run = make_run(tmp_path / "run", [
        driver("cpp-onnxruntime-iobinding", [1800, 1810, 1790, 1805, 1795], runtime="onnxruntime",
               **cpp),
        driver("cpp-torchscript", [6800, 6810, 6790, 6805, 6795], runtime="libtorch", **cpp),
        driver("cpp-aoti", [1800, 1900, 1700, 1850, 1750], runtime="aotinductor", **cpp),
        driver("cpp-executorch-method", [600, 610, 590, 605, 595], runtime="executorch", **cpp),
    ])  # fmt: skip
    text = report(tmp_path, run)
    aoti = next(line for line in text.splitlines() if line.startswith("- **AOTInductor"))
    executorch = next(line for line in text.splitlines() if line.startswith("- **ExecuTorch"))
    assert "it ties with it" in aoti and "at most half of its cost" in aoti
    assert "it beats it" in executorch and "at most half of its cost" in executorch
    assert "prototype status" in text


def test_compare_says_whether_two_counts_agree(tmp_path: Path) -> None:
    from tests.test_report import counted

    a = make_run(tmp_path / "a", [
        driver("cpp-handwritten", [28] * 3, count=counted([300_000] * 3, [586_000] * 3)),
        driver("python-numpy", [5000] * 3, count=counted([1_000_000] * 3, [33_000_000] * 3)),
    ])  # fmt: skip
    # B: the same work for the floor, 3% more for python-numpy; the times moved alike.
    b = make_run(tmp_path / "b", [
        driver("cpp-handwritten", [40] * 3, count=counted([300_500] * 3, [586_600] * 3)),
        driver("python-numpy", [7000] * 3, count=counted([1_000_000] * 3, [33_960_000] * 3)),
    ])  # fmt: skip
    text = compare_runs(a, b)
    counts = text.split("ratios between drivers", 1)[1]
    assert "same work" in lines_of(counts, "cpp-handwritten")
    assert "+3.00%" in lines_of(counts, "python-numpy")
    assert counts.splitlines()[-1] == "instructions per call: 1 of 2 within ±1% of A"
