"""`--onnx PATH`: a model the user brings, checked, prepared and run through the ONNX drivers.

The two models here are not our MLP: 4 features -> Gemm -> Tanh -> Gemm -> 3 outputs, and
5 features through a residual Add to 2 outputs. Both are built with onnx.helper.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from callbench.errors import UsageError
from callbench.harness import machine
from callbench.model import artifacts as art
from callbench.model import user_onnx
from tests.conftest import HarnessRun, require_available

RNG = np.random.default_rng(7)
OPSET = [helper.make_opsetid("", 17)]


def _weights(name: str, *shape: int) -> onnx.TensorProto:
    return numpy_helper.from_array(RNG.standard_normal(shape).astype(np.float32), name)


def _save(path: Path, graph: onnx.GraphProto) -> Path:
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="callbench-tests")
    model.ir_version = 8
    onnx.save(model, path)
    return path


def _input(name: str, dims: list[Any], elem: int = TensorProto.FLOAT) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, dims)


def tanh_mlp(path: Path, x_dims: list[object] | None = None, elem: int = TensorProto.FLOAT,
             extra_input: bool = False) -> Path:  # fmt: skip
    """features [batch, 4] -> Gemm -> Tanh -> Gemm -> scores [batch, 3]."""
    nodes = [
        helper.make_node("Gemm", ["features", "w1", "b1"], ["h"], transB=1),
        helper.make_node("Tanh", ["h"], ["t"]),
        helper.make_node("Gemm", ["t", "w2", "b2"], ["scores"], transB=1),
    ]
    inputs = [_input("features", x_dims or ["batch", 4], elem)]
    if extra_input:
        inputs.append(_input("mask", ["batch", 4]))
    graph = helper.make_graph(
        nodes, "tanh_mlp", inputs, [_input("scores", ["batch", 3])],
        [_weights("w1", 6, 4), _weights("b1", 6), _weights("w2", 3, 6), _weights("b2", 3)],
    )  # fmt: skip
    return _save(path, graph)


def residual(path: Path) -> Path:
    """x [?, 5] -> relu(x W + b) + x -> MatMul -> out [?, 2], the batch left unnamed (as
    skl2onnx writes it)."""
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["xw"]),
        helper.make_node("Add", ["xw", "b"], ["z"]),
        helper.make_node("Relu", ["z"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["skip"]),
        helper.make_node("MatMul", ["skip", "head"], ["out"]),
    ]
    graph = helper.make_graph(
        nodes, "residual", [_input("x", [None, 5])], [_input("out", [None, 2])],
        [_weights("w", 5, 5), _weights("b", 5), _weights("head", 5, 2)],
    )  # fmt: skip
    return _save(path, graph)


def numpy_tanh_mlp(path: Path, x: np.ndarray) -> np.ndarray:
    w = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    h = np.tanh(x.astype(np.float64) @ w["w1"].T + w["b1"])
    return h @ w["w2"].T + w["b2"]


def test_a_model_is_prepared_with_its_names_shapes_and_reference(tmp_path: Path) -> None:
    path = tanh_mlp(tmp_path / "scorer.onnx")
    folder = user_onnx.prepare(path)
    manifest = json.loads((folder / art.MANIFEST).read_text())
    brought = manifest[user_onnx.ORIGIN]
    assert brought["file"] == "scorer.onnx" and brought["sha256"] == art.sha256_of(path)
    assert brought["inputs"] == [{"name": "features", "dtype": "float32", "shape": ["batch", 4]}]
    assert brought["outputs"] == [{"name": "scores", "dtype": "float32", "shape": ["batch", 3]}]
    assert brought["opset"] == 17 and brought["producer"] == "callbench-tests"
    assert brought["cross_check"].startswith(
        "the onnx reference evaluator agrees on the first 8 samples"
    )
    assert [w["witness"] for w in brought["witnesses"]] == ["the onnx reference evaluator"]
    signature = art.signature(folder)
    assert [(t.name, t.shape, t.file) for t in (*signature.inputs, *signature.outputs)] == [
        ("features", (4,), art.INPUTS), ("scores", (3,), art.REFERENCE)]  # fmt: skip
    art.verify(folder, [art.ONNX, art.INPUTS, art.REFERENCE])
    x = art.read_inputs(folder)
    assert x.min() >= -1 and x.max() < 1 and len(x) == user_onnx.SAMPLES
    want = numpy_tanh_mlp(path, x[:100])
    reference = art.read_reference(folder)
    assert np.abs(reference[:100] - want).max() < 1e-5
    assert manifest["tolerance"] == pytest.approx(1e-4 * max(1.0, np.abs(reference).max()))
    assert signature.outputs[0].tolerance == manifest["tolerance"]


def test_inputs_may_come_from_the_user(tmp_path: Path) -> None:
    samples = RNG.standard_normal((300, 5))  # float64: read as float32
    np.save(tmp_path / "mine.npy", samples)
    folder = user_onnx.prepare(residual(tmp_path / "res.onnx"), tmp_path / "mine.npy")
    assert np.array_equal(art.read_inputs(folder), samples.astype(np.float32))
    assert art.read_reference(folder).shape == (300, 2)


def _graph_rejected_by_checker(path: Path) -> Path:
    # A node reads a tensor nothing defines.
    graph = helper.make_graph(
        [helper.make_node("Relu", ["nowhere"], ["y"])], "bad",
        [_input("x", ["batch", 2])], [_input("y", ["batch", 2])],
    )  # fmt: skip
    return _save(path, graph)


def _external_data(path: Path) -> Path:
    model = onnx.load(tanh_mlp(path))
    onnx.save_model(model, path, save_as_external_data=True, location=f"{path.name}.data",
                    size_threshold=0)  # fmt: skip
    return path


BAD_MODELS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "not_onnx": (lambda p: (p.write_bytes(b"\x00\xffnot a model at all" * 9), p)[1],
                 "not an ONNX model"),
    "checker": (_graph_rejected_by_checker, "rejected by onnx.checker"),
    "string": (lambda p: tanh_mlp(p, elem=TensorProto.STRING),
               "input 'features' is a string tensor; callbench feeds numbers"),
    "bfloat16": (lambda p: tanh_mlp(p, elem=TensorProto.BFLOAT16),
                 "input 'features' is bfloat16; callbench feeds float32, float16, float64"),
    "symbolic_features": (lambda p: tanh_mlp(p, x_dims=["batch", "width"]),
                          "dimension 1 of input 'features' is 'width', not a fixed size; give "
                          "its size with --inputs FILE.npz"),
    "missing": (lambda p: p, "no such file"),
    "external_data": (_external_data, "keeps its weights in an external data file"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_MODELS))
def test_a_bad_model_is_one_line_naming_the_file(case: str, tmp_path: Path) -> None:
    make, problem = BAD_MODELS[case]
    path = make(tmp_path / f"{case}.onnx")
    with pytest.raises(UsageError) as caught:
        user_onnx.prepare(path)
    assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_model_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tanh_mlp(tmp_path / "big.onnx")
    with pytest.raises(UsageError, match=r"big.onnx: is 0 MiB, over callbench's 0 MiB"):
        user_onnx.prepare(path, limit=100)
    assert user_onnx.SIZE_LIMIT == 256 * 2**20  # the README states this figure


def test_bad_inputs_files_are_refused(tmp_path: Path) -> None:
    model = residual(tmp_path / "res.onnx")
    np.save(tmp_path / "wide.npy", np.zeros((4, 6), dtype=np.float32))
    with pytest.raises(UsageError, match=r"wide.npy: has shape \(4, 6\); the model takes \[N, 5\]"):
        user_onnx.prepare(model, tmp_path / "wide.npy")
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object))
    with pytest.raises(UsageError, match=r"objects.npy: not a .npy array"):  # never unpickled
        user_onnx.prepare(model, tmp_path / "objects.npy")


def test_a_rejected_model_leaves_no_run_folder(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = tanh_mlp(tmp_path / "text.onnx", elem=TensorProto.STRING)
    run = run_harness("--onnx", str(path), "--only", "python-onnxruntime")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"callbench: usage: {path}: input 'features' is a string tensor; callbench feeds numbers"
    ]
    assert run.run_dir is None and not (tmp_path / "runs").exists()


def onnx_rows(language: str) -> list[str]:
    """The registry's drivers of ``language`` that load ONNX: a new one joins by its line (a
    callers-only row runs at N > 1 callers alone, through its twin's code: test_callers.py)."""
    from callbench.registry import DRIVERS, language_key
    from callbench.roles import CALLERS_ONLY

    return [d.id for d in DRIVERS if d.artifact == art.ONNX and language_key(d) == language
            and CALLERS_ONLY not in d.roles and not d.mlp_only]  # fmt: skip


PYTHON_ONNX = onnx_rows("python")
CPP_ONNX = onnx_rows("cpp")
RUST_ONNX = onnx_rows("rust")
GO_ONNX = onnx_rows("go")
JAVA_ONNX = onnx_rows("java")
NODE_ONNX = onnx_rows("node")
OTHER_ONNX = [*GO_ONNX, *JAVA_ONNX, *NODE_ONNX]


def run_users_model(
    path: Path, drivers: list[str], run_harness: Callable[..., HarnessRun], *extra: str,
    flag: str = "--onnx",
) -> HarnessRun:  # fmt: skip
    """``callbench run --onnx path`` (or ``flag``) over ``drivers``, each of which must come
    out ok."""
    from callbench.registry import lookup

    for driver_id in drivers:
        require_available(lookup(driver_id))
    only = [a for d in drivers for a in ("--only", d)]
    run = run_harness(flag, str(path), *only, "--rounds", "2", "--round-time", "0.01",
                      "--warmup", "10", *extra)  # fmt: skip
    assert run.returncode == 0, run.stderr
    for driver_id in drivers:
        record = run.records[driver_id]
        assert record.status == "ok", (driver_id, record.error)
        assert record.max_abs_error is not None and record.max_abs_error <= record.tolerance
    return run


@pytest.mark.parametrize("make", [tanh_mlp, residual], ids=["tanh_mlp", "residual"])
def test_python_onnx_drivers_run_a_users_model_verified(
    make: Callable[[Path], Path], run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    path = make(tmp_path / "theirs.onnx")
    run = run_users_model(path, PYTHON_ONNX, run_harness)
    assert run.run_dir is not None
    brought = run.env[user_onnx.ORIGIN]
    assert brought["file"] == "theirs.onnx" and brought["tolerance"] > 0
    assert (run.run_dir / user_onnx.FOLDER / art.ONNX).read_bytes() == path.read_bytes()
    from callbench.records.store import load_run
    from callbench.report.document import render

    text = render([load_run(run.run_dir)], tmp_path / "report")
    assert text.startswith(f"# callbench report: `theirs.onnx` (sha256 `{brought['sha256'][:16]}")
    assert "## The model" in text and "## Each language's cheapest call" in text
    assert text.index("## What decides a call's cost here") < text.index("## Each language's")
    port = brought["inputs"][0]
    assert f"| input | `{port['name']}` | float32 | [{port['shape'][0]}, " in text
    assert "seed's table" not in text and "Calling a PyTorch model today" not in text


@pytest.mark.parametrize("make", [tanh_mlp, residual], ids=["tanh_mlp", "residual"])
@pytest.mark.parametrize(
    "drivers", [CPP_ONNX, RUST_ONNX, OTHER_ONNX], ids=["cpp", "rust", "go_java_node"]
)
def test_compiled_onnx_drivers_run_a_users_model_verified(
    make: Callable[[Path], Path], drivers: list[str], run_harness: Callable[..., HarnessRun],
    tmp_path: Path,
) -> None:  # fmt: skip
    """Names and sizes from the model: batch 3 of 4 features in, 3 (or 2) outputs each."""
    run_users_model(make(tmp_path / "theirs.onnx"), drivers, run_harness, "--batch", "3")


def determinant(path: Path) -> Path:
    """x [batch, 4] -> 2x2 matrices -> Det -> y [batch, 1]: ONNX Runtime runs Det, OpenVINO
    and tract do not."""
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["m"]),
        helper.make_node("Det", ["m"], ["d"]),
        helper.make_node("Unsqueeze", ["d", "axes"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "det", [_input("x", ["batch", 4])], [_input("y", ["batch", 1])],
        [numpy_helper.from_array(np.array([-1, 2, 2], dtype=np.int64), "shape"),
         numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")],
    )  # fmt: skip
    return _save(path, graph)


def test_an_operator_one_runtime_lacks_fails_that_driver_only(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    from callbench.registry import lookup

    for driver_id in ("python-onnxruntime", "python-openvino"):
        require_available(lookup(driver_id))
    run = run_harness("--onnx", str(determinant(tmp_path / "det.onnx")), "--only",
                      "python-onnxruntime", "--only", "python-openvino", "--rounds", "1",
                      "--round-time", "0.01", "--warmup", "10")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.records["python-onnxruntime"].status == "ok"
    lacking = run.records["python-openvino"]
    assert lacking.status == "failed" and "Det" in (lacking.error or "")


def test_options_that_do_not_go_with_a_users_model_are_usage_errors(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    model = str(tanh_mlp(tmp_path / "m.onnx"))
    np.save(tmp_path / "x.npy", np.zeros((10, 4), dtype=np.float32))
    cases = {
        ("--inputs", str(tmp_path / "x.npy")): "--inputs goes with --onnx",
        ("--onnx", model, "--widths", "8"): "no --widths or --sweep with it",
        ("--onnx", model, "--only", "python-numpy"): "none of the chosen drivers loads ONNX",
    }
    for args, problem in cases.items():
        run = run_harness(*args)
        assert run.returncode == 2 and problem in run.stderr, (args, run.stderr)
        assert run.run_dir is None


def test_bench_on_a_users_model_sweeps_each_runtime_and_reports_in_its_run_folder(
    tmp_path: Path,
) -> None:
    from callbench.records.store import RESULTS, load_run
    from tests.conftest import run_module

    path = tanh_mlp(tmp_path / "theirs.onnx")
    ours = (RESULTS / "report.md").read_bytes()
    done = run_module("callbench.cli", "bench", "--onnx", str(path), "--no-build",
                      "--only", "python-onnxruntime", "--only", "python-openvino",
                      "--rounds", "2", "--round-time", "0.005", "--warmup", "10",
                      "--serving-budget", "0.25",
                      "--runs-dir", str(tmp_path / "runs"), "--run-id", "mine")  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    run = load_run(tmp_path / "runs" / "mine")
    # Each runtime's fastest row (an ONNX Runtime and an OpenVINO one) over batch and threads,
    # as far as a call of microseconds goes within the budget (up to the inputs' 100,000).
    swept = {(kind, v): sorted(r.id.split("-")[1] for r in rs)
             for kind, points in run.sweeps.items() for v, rs in points.items()}  # fmt: skip
    assert swept[("batch", 1000)] == swept[("threads", 1)] == ["onnxruntime", "openvino"]
    assert all(r.ok for kind, points in run.sweeps.items() if kind != "serving"
               for rs in points.values() for r in rs)  # fmt: skip
    # Then the callers sweep at 1, the cores and twice them, threads and (Python) processes.
    cores = len(machine.usable_cpus())
    assert sorted(run.sweeps["callers"]) == sorted({1, cores, 2 * cores})
    assert sorted(run.sweeps["processes"]) == sorted({cores, 2 * cores} - {1})
    # At one caller, OpenVINO's fastest main-group row that takes callers: -reuse or -static,
    # whichever ran faster here (on this small graph they are within each other's noise).
    from callbench.registry import lookup
    from callbench.roles import CALLERS_ONLY

    def takes_callers(driver: str) -> bool:
        spec = lookup(driver)
        return spec.callers is not None and CALLERS_ONLY not in spec.roles

    takes = [r for r in run.drivers if r.ok and r.sweep is None and r.runtime == "openvino"
             and takes_callers(r.id)]  # fmt: skip
    openvino = min(takes, key=lambda r: r.median_ns).id
    assert openvino in {r.id for r in run.sweeps["callers"][1]}
    # Python's best row at N = the cores again at as many intra-op threads, and batching at
    # batch C (its batch sweep's best point, if it is that row's, is not run again).
    # (Its callers-only twin, a session per caller, is at one caller the fastest ONNX Runtime
    # row of the main group: python-onnxruntime or its -iobinding variant, whichever ran
    # faster here.)
    best = min((r for kind in ("callers", "processes") for r in run.sweeps[kind].get(cores, [])),
               key=lambda r: r.median_ns)  # fmt: skip
    row = best.id
    if row.endswith("-sessions"):
        row = min((r for r in run.drivers if r.ok and r.runtime == best.runtime),
                  key=lambda r: r.median_ns).id  # fmt: skip
    if cores > 1:
        assert [(r.id, r.threads, r.batch) for r in run.sweeps["intra-op"][cores]] == [
            (row, cores, 1)]  # fmt: skip
        assert row in {r.id for r in run.sweeps["batching"][cores]}
    phases = [p["phase"] for p in json.loads((run.path / "env.json").read_text())["phases"]]
    # (Under nox, its install arrives first as the venv phase.)
    ran = [p for p in phases if p != "venv"]
    assert ran == ["export", "measure", "sweeps", "callers", "serving", "report"]
    # Served within a bound from its own call (10x the slowest compared row's median at one
    # caller): as far as the serving budget of 0.25 min allows, Python's best row at one
    # caller; the rest recorded as skipped (past the budget, or out of contention), saying why.
    served = [r for rs in run.sweeps["serving"].values() for r in rs]
    ok = [r for r in served if r.ok]
    assert [(r.callers, r.processes, r.threads) for r in ok] == [(1, 1, 1)]
    assert ok[0].serving is not None and ok[0].serving["coarse"]
    assert ok[0].serving["bound_from"].startswith("10x the slowest row's median call")
    assert all(r.status == "skipped" and ("budget" in (r.error or "") or "contention" in
               (r.error or "")) for r in served if not r.ok)  # fmt: skip
    # The report in the run's folder, the project's committed one left as it was.
    text = (tmp_path / "runs" / "mine" / "report.md").read_text()
    assert "## What decides a call's cost here" in text and "## Batch-size sweep" in text
    assert (RESULTS / "report.md").read_bytes() == ours
    # A copy as the latest report, beside the runs folder (results/latest/ for results/runs/).
    assert (tmp_path / "latest" / "report.md").read_text() == text
