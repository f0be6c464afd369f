"""serve-rate with no row named: each language's best row at one caller and the cores, its
twins at the cores, Python's and Node.js's in as many processes, within a budget."""

from __future__ import annotations

import json
from pathlib import Path

from callbench.cli.serve_rate import _named_plan
from callbench.harness.load import dynamic_batcher, serving_plan
from callbench.harness.load.serving import PACED_LANGUAGES
from callbench.model import artifacts as art
from callbench.model import user_onnx
from callbench.records.record import Record
from callbench.registry import DRIVERS, lookup
from tests.test_report import driver


def ran(us: dict[str, float]) -> list[Record]:
    return [driver(i, [t * 1000] * 3, runtime=lookup(i).runtime) for i, t in us.items()]


def test_each_languages_fastest_row_is_served_with_its_twins_and_processes() -> None:
    done = ran({  # µs a call at one caller
        "python-onnxruntime": 6.0, "python-onnxruntime-iobinding": 5.0,
        "python-eager-inference": 20.0, "cpp-onnxruntime-reuse": 1.0,
        "go-onnxruntime-iobinding": 2.0, "node-onnxruntime-web": 9.0,
    })  # fmt: skip
    planned = serving_plan.plan(DRIVERS, done, cores=2, budget_s=3600)
    labels = [p.label for p in planned.kept]
    assert labels[:4] == ["python-onnxruntime-iobinding x1", "cpp-onnxruntime-reuse x1",
                          "go-onnxruntime-iobinding x1", "node-onnxruntime-web x1"]  # fmt: skip
    assert labels[4:8] == [label.replace("x1", "x2") for label in labels[:4]]
    assert labels[8:10] == ["python-onnxruntime-iobinding x2 processes",
                            "node-onnxruntime-web x2 processes"]  # fmt: skip
    assert "python-onnxruntime-iobinding-sessions x2" in labels[10:]
    assert "go-onnxruntime-iobinding-sessions x2" in labels[10:]
    assert not any(p.spec.id.startswith("python-eager") for p in planned.kept)
    assert planned.skipped == []


def test_the_points_past_the_budget_are_skipped_each_saying_why() -> None:
    done = ran({"python-onnxruntime-iobinding": 5.0, "cpp-onnxruntime-reuse": 1.0})
    budget = 3 * serving_plan.ROW_AND_N_S
    planned = serving_plan.plan(DRIVERS, done, cores=2, budget_s=budget)
    assert [p.label for p in planned.kept] == ["python-onnxruntime-iobinding x1",
                                               "cpp-onnxruntime-reuse x1",
                                               "python-onnxruntime-iobinding x2"]  # fmt: skip
    assert planned.skipped and all("past the budget" in why for _, why in planned.skipped)
    assert planned.estimate_s == budget


def test_on_one_core_a_language_is_served_at_one_caller_only() -> None:
    done = ran({"python-onnxruntime-iobinding": 5.0})
    planned = serving_plan.plan(DRIVERS, done, cores=1, budget_s=3600)
    assert [p.label for p in planned.kept] == ["python-onnxruntime-iobinding x1"]


def test_the_candidates_are_the_serving_kits_rows_that_take_callers_without_twins() -> None:
    chosen = serving_plan.candidates(DRIVERS, list(PACED_LANGUAGES))
    assert chosen and all(s.callers is not None for s in chosen)
    assert not any(s.id.startswith("independent-") for s in chosen)
    assert "python-onnxruntime-iobinding-sessions" not in {s.id for s in chosen}


def test_with_batchers_each_best_row_goes_through_each_after_its_callers() -> None:
    done = ran({"python-onnxruntime-iobinding": 5.0, "rust-burn": 2.0})
    batchers = dynamic_batcher.batchers([4, 16], [200])
    planned = serving_plan.plan(DRIVERS, done, cores=2, budget_s=3600, batchers=batchers)
    labels = [p.label for p in planned.kept]
    # A runtime that takes a changing batch (roles.GATHERED) is served padded and gathered.
    assert labels[4:10] == ["python-onnxruntime-iobinding batcher B 4 D 200 us",
                            "python-onnxruntime-iobinding batcher B 4 D 200 us gathered",
                            "python-onnxruntime-iobinding batcher B 16 D 200 us",
                            "python-onnxruntime-iobinding batcher B 16 D 200 us gathered",
                            "rust-burn batcher B 4 D 200 us",
                            "rust-burn batcher B 16 D 200 us"]  # fmt: skip
    assert all(p.callers == 1 and p.processes == 1 for p in planned.kept if p.batcher)


def test_named_points_that_cannot_be_served_are_skipped_before_the_estimate(
    tmp_path: Path,
) -> None:
    # A user's program whose ExecuTorch program was planned for batches up to 15.
    planned_for = {"status": "ok", "largest_batch": 15}
    (tmp_path / art.MANIFEST).write_text(json.dumps(
        {"files": {}, user_onnx.ORIGIN: {"artifacts": {"mlp.pte": planned_for}}}))  # fmt: skip
    point = serving_plan.ServingPoint
    batcher, wide = dynamic_batcher.Batcher(4, 100), dynamic_batcher.Batcher(16, 100)
    twin, row = lookup("python-onnxruntime-iobinding-sessions"), lookup("cpp-onnxruntime-reuse")
    method = lookup("cpp-executorch-method")
    planned = _named_plan([point(row, 1), point(twin, 1), point(twin, 2),
                           point(row, 1, batcher=batcher), point(twin, 1, batcher=batcher),
                           point(method, 1, batcher=batcher),
                           point(method, 1, batcher=wide)], None, tmp_path)  # fmt: skip
    assert [p.label for p in planned.kept] == [
        "cpp-onnxruntime-reuse x1", "python-onnxruntime-iobinding-sessions x2",
        "cpp-onnxruntime-reuse batcher B 4 D 100 us",
        "cpp-executorch-method batcher B 4 D 100 us"]  # fmt: skip
    whys = {p.label: why for p, why in planned.skipped}
    assert "callers-only twin" in whys["python-onnxruntime-iobinding-sessions x1"]
    assert "callers-only twin" in whys["python-onnxruntime-iobinding-sessions batcher B 4 D 100 us"]
    assert whys["cpp-executorch-method batcher B 16 D 100 us"].startswith(
        "batch 16 is above the largest batch 15 that mlp.pte was planned for"
    )
    assert planned.estimate_s == 4 * serving_plan.ROW_AND_N_S
