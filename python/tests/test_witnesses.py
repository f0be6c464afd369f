"""A cross-check is evidence for ONNX Runtime's reference, not a veto: a right model the onnx
reference evaluator gets wrong is accepted with the witness that agreed; a reference no
second implementation agrees with is refused in one line naming each difference."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from callbench.errors import UsageError
from callbench.model import artifacts as art
from callbench.model import user_onnx, witnesses
from tests.conftest import HarnessRun
from tests.test_user_onnx import tanh_mlp

EVALUATOR, OPENVINO = (name for name, _ in witnesses.WITNESSES)


def opset9_softmax(path: Path) -> Path:
    """Softmax over x [1, 1000, 1, 1] in opset 9: axis 1, the input coerced to [1, 1000], so a
    distribution over the 1000 values (a SqueezeNet's head). The onnx reference evaluator
    applies opset 13's rule (the last axis, of size 1) and gives 1.0 for each."""
    graph = helper.make_graph(
        [helper.make_node("Softmax", ["x"], ["p"])], "squeeze_head",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1000, 1, 1])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, [1, 1000, 1, 1])],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)],
                              producer_name="callbench-tests")  # fmt: skip
    model.ir_version = 4
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def test_a_right_model_the_evaluator_gets_wrong_stands_with_openvino_as_witness(
    tmp_path: Path,
) -> None:
    folder = user_onnx.prepare(opset9_softmax(tmp_path / "squeeze.onnx"))
    brought = json.loads((folder / art.MANIFEST).read_text())[user_onnx.ORIGIN]
    said = {w["witness"]: w for w in brought["witnesses"]}
    assert said[EVALUATOR]["agrees"] is False and said[EVALUATOR]["max_abs_error"] > 0.9
    assert said[OPENVINO]["agrees"] is True and said[OPENVINO]["max_abs_error"] < 1e-5
    assert f"{EVALUATOR} differs by" in brought["cross_check"]
    assert brought["cross_check"].endswith("ONNX Runtime's outputs stand, with OpenVINO as witness")
    # The reference is ONNX Runtime's, the opset-9 rule: each of the 1000 values a share.
    p = np.fromfile(folder / art.signature(folder).outputs[0].file, dtype="<f4").reshape(-1, 1000)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4) and p.max() < 0.5


def test_a_wrong_reference_no_witness_agrees_with_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tanh_mlp(tmp_path / "scorer.onnx")
    folder = user_onnx.prepare(path)
    samples = {"features": art.read_inputs(folder)}
    right = art.read_reference(folder)
    wrong = {"scores": right + 0.5}  # a fake ONNX Runtime whose every output is off by 0.5
    with pytest.raises(UsageError) as refused:
        witnesses.cross_check(path, path.read_bytes(), samples, wrong, {"scores": 1e-4}, "batch")
    line = str(refused.value)
    assert "\n" not in line and line.startswith(f"{path}: no second implementation agrees")
    assert f"{EVALUATOR} differs by 0.5 on output 'scores'" in line
    assert f"{OPENVINO} differs by 0.5 on output 'scores'" in line
    # The right reference: the evaluator agrees, and OpenVINO is not asked.
    heard = witnesses.cross_check(path, path.read_bytes(), samples, {"scores": right},
                                  {"scores": 1e-4}, "batch")  # fmt: skip
    assert [h.witness for h in heard] == [EVALUATOR] and heard[0].agrees


def test_a_model_no_witness_can_run_goes_on_saying_so(tmp_path: Path) -> None:
    path = tanh_mlp(tmp_path / "scorer.onnx")
    folder = user_onnx.prepare(path)
    samples, right = {"features": art.read_inputs(folder)}, art.read_reference(folder)

    def cannot(data: bytes, names: list[str], feeds: witnesses.Feeds) -> dict:
        raise RuntimeError("no such operator\nat line 3")

    heard = witnesses.cross_check(path, b"", samples, {"scores": right}, {"scores": 1e-4},
                                  "batch", [("a", cannot), ("b", cannot)])  # fmt: skip
    assert [h.agrees for h in heard] == [None, None]
    assert witnesses.summary(heard) == (
        "a cannot run it (no such operator); b cannot run it (no such operator): "
        "no witness could check ONNX Runtime's outputs"
    )


def test_unwitnessed_takes_a_reference_no_witness_agrees_with_and_says_so(tmp_path: Path) -> None:
    path = tanh_mlp(tmp_path / "scorer.onnx")
    folder = user_onnx.prepare(path)
    samples = {"features": art.read_inputs(folder)}
    wrong = {"scores": art.read_reference(folder) + 0.5}
    with pytest.raises(UsageError) as refused:
        witnesses.cross_check(path, path.read_bytes(), samples, wrong, {"scores": 1e-4}, "batch")
    assert str(refused.value).endswith(f"({witnesses.UNWITNESSED} takes ONNX Runtime's outputs "
                                       "as the reference all the same)")  # fmt: skip
    heard = witnesses.cross_check(path, path.read_bytes(), samples, wrong, {"scores": 1e-4},
                                  "batch", unwitnessed=True)  # fmt: skip
    assert [h.agrees for h in heard] == [False, False] and witnesses.unconfirmed(heard)
    assert witnesses.summary(heard).endswith(f"({witnesses.UNCONFIRMED})")
    # A reference a witness confirms is not marked, with the option or without it.
    assert not witnesses.unconfirmed(witnesses.cross_check(
        path, path.read_bytes(), samples, {"scores": art.read_reference(folder)},
        {"scores": 1e-4}, "batch", unwitnessed=True))  # fmt: skip
    manifest = json.loads((folder / art.MANIFEST).read_text())[user_onnx.ORIGIN]
    assert manifest[user_onnx.UNCONFIRMED] is False


def light_squeezenet() -> Path:
    """The onnx wheel's opset-9 test model: its synthetic weights drive every logit to about
    4.8e9, equal in float32, so its softmax is decided by rounding and no witness agrees."""
    return Path(onnx.__file__).parent / "backend/test/data/light/light_squeezenet.onnx"


def confirmed_here(model: Path) -> str | None:
    """The cross-check's summary where a witness agrees with ONNX Runtime on ``model`` on this
    CPU, else None: which way an all-equal softmax rounds is the kernels' (OpenVINO's AVX2
    kernels round light_squeezenet's as ONNX Runtime's do, on a host without AVX-512)."""
    folder = user_onnx.prepare(model, unwitnessed=True)
    try:
        origin = json.loads((folder / art.MANIFEST).read_text())[user_onnx.ORIGIN]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return None if origin[user_onnx.UNCONFIRMED] else str(origin["cross_check"])


def test_a_model_no_witness_confirms_runs_with_unwitnessed_and_every_record_says_so(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    from callbench.records.store import load_run
    from callbench.report.document import render

    model = light_squeezenet()
    if heard := confirmed_here(model):
        pytest.skip(f"a witness confirms it on this CPU: {heard}")
    refused = run_harness("--onnx", str(model), "--only", "python-onnxruntime")
    assert refused.returncode == 2 and refused.run_dir is None
    assert f"{model}: no second implementation agrees" in refused.stderr
    assert witnesses.UNWITNESSED in refused.stderr
    run = run_harness("--onnx", str(model), "--unwitnessed", "--only", "python-onnxruntime",
                      "--rounds", "2", "--round-time", "0.01", "--warmup", "5")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.env[user_onnx.ORIGIN][user_onnx.UNCONFIRMED] is True
    assert run.env[user_onnx.ORIGIN]["cross_check"].endswith(f"({witnesses.UNCONFIRMED})")
    assert {r.status for r in run.records.values()} == {"ok"}
    assert {r.notes.get("reference") for r in run.records.values()} == {witnesses.UNCONFIRMED}
    assert run.run_dir is not None
    title = render([load_run(run.run_dir)], tmp_path / "report").splitlines()[0]
    assert title.endswith(f"…`): {witnesses.UNCONFIRMED}") and "light_squeezenet.onnx" in title


def test_unwitnessed_goes_with_onnx_only(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    run = run_harness("--unwitnessed", "--only", "python-numpy")
    assert run.returncode == 2 and "--unwitnessed goes with --onnx" in run.stderr
