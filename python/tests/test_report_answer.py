"""The answer first: each language's cheapest real way to call (not a hand-written
forward), ties marked, the floor below it, and the batch lever per sample."""

from __future__ import annotations

from pathlib import Path

from callbench.records.store import load_run
from callbench.report.sections import answer
from tests.test_report import driver, make_run, report

LANGUAGES = {"cpp": "C++", "rust": "Rust", "java": "Java", "go": "Go", "python": "Python",
             "node": "Node.js"}  # fmt: skip


def records_of_every_language() -> list:
    rows = [driver("cpp-handwritten", [20] * 5, language="C++", runtime="handwritten"),
            driver("python-cython", [50] * 5, runtime="cython"),
            driver("cpp-onnxruntime-iobinding", [2000, 2010, 1990, 2005, 1995], language="C++",
                   runtime="onnxruntime"),
            driver("cpp-libtorch", [6000] * 5, language="C++", runtime="libtorch"),
            # within 10% of the cheapest: a tie
            driver("rust-ort-iobinding", [2100, 2110, 2090, 2105, 2095], language="Rust",
                   runtime="onnxruntime")]  # fmt: skip
    for n, (prefix, language) in enumerate(LANGUAGES.items()):
        if prefix in ("cpp", "rust"):
            continue
        rows.append(driver(f"{prefix}-onnxruntime", [3000 + 1000 * n] * 5, language=language,
                           runtime="onnxruntime"))  # fmt: skip
    return rows


def test_each_languages_cheapest_real_way_leads_with_ties_marked(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "run", records_of_every_language()))
    cheapest = answer.cheapest_per_language(run.drivers)
    assert [r.language for r in cheapest] == ["C++", "Rust", "Java", "Go", "Python", "Node.js"]
    assert cheapest[0].id == "cpp-onnxruntime-iobinding"  # not the hand-written floor
    table = answer.choice_table(run.drivers)
    assert "| Rust | `rust-ort-iobinding` (onnxruntime) | 2.10 (" in table
    assert table.splitlines()[3].endswith("| ≈ 1.05× |")
    assert table.splitlines()[4].endswith("| 2.50× |")  # java at 5 µs: no tie
    floor = answer.floor_line(run.drivers)
    assert floor is not None and "`cpp-handwritten`" in floor and "100×" in floor


def test_the_batch_lever_gives_each_languages_cost_per_sample(tmp_path: Path) -> None:
    records = records_of_every_language()
    for batch, per_call in ((1, 2000), (100, 20_000), (10_000, 200_000)):
        records.append(driver("cpp-onnxruntime-iobinding", [per_call] * 3, language="C++",
                              runtime="onnxruntime", batch=batch,
                              sweep={"kind": "batch", "value": batch}))  # fmt: skip
    text = report(tmp_path, make_run(tmp_path / "run", records))
    top = text.split(f"## {answer.TITLE}")[1].split("\n## ")[0]
    assert "| C++ | `cpp-onnxruntime-iobinding` | 2.00 | 0.200 | 0.020 | 100× |" in top
    assert text.index(answer.TITLE) < text.index("## Cost per call, one sample a call")
