"""The exporter: a real fit, three formats that agree, and the same bytes every time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch

from callbench.model import artifacts as art
from callbench.model.mlp import MLP
from tests.conftest import SMALL_SAMPLES, run_module


def manifest(models: Path) -> dict:
    return json.loads((models / art.MANIFEST).read_text())


def test_fit_is_below_the_issue_threshold(small_models: Path) -> None:
    assert manifest(small_models)["fit_rmse"] < 0.1


def test_manifest_lists_every_artifact_with_its_hash(small_models: Path) -> None:
    files = manifest(small_models)["files"]
    from callbench.model.exported_programs import (
        AOTI_PACKAGE,
        EXECUTORCH_PORTABLE,
        EXECUTORCH_XNNPACK,
    )

    expected = {art.STATE_DICT, art.TORCHSCRIPT, art.ONNX, art.WEIGHTS, art.INPUTS, art.REFERENCE,
                AOTI_PACKAGE, EXECUTORCH_XNNPACK, EXECUTORCH_PORTABLE}  # fmt: skip
    assert set(files) == expected
    art.verify(small_models, expected)
    assert files[art.INPUTS]["shape"] == [SMALL_SAMPLES, 2]


def test_inputs_are_uniform_in_the_half_open_square(small_models: Path) -> None:
    x = art.read_inputs(small_models)
    assert x.shape == (SMALL_SAMPLES, 2)
    assert x.min() >= -10.0 and x.max() < 10.0
    assert abs(float(x.mean())) < 0.2  # uniform over [-10, 10): mean near 0


def test_state_dict_torchscript_and_onnx_agree(small_models: Path) -> None:
    x = art.read_inputs(small_models)
    reference = art.read_reference(small_models)
    model = MLP()
    model.load_state_dict(art.load_state_dict(small_models / art.STATE_DICT))
    model.eval()
    scripted = torch.jit.load(str(small_models / art.TORCHSCRIPT))
    session = ort.InferenceSession(str(small_models / art.ONNX), providers=["CPUExecutionProvider"])
    with torch.inference_mode():
        eager = model(torch.from_numpy(x)).numpy()
        script = scripted(torch.from_numpy(x)).numpy()
    onnx_out = session.run(None, {"x": x})[0]
    np.testing.assert_allclose(eager, reference, atol=1e-5, rtol=0)
    np.testing.assert_allclose(script, reference, atol=1e-5, rtol=0)
    np.testing.assert_allclose(onnx_out, reference, atol=1e-5, rtol=0)


def test_onnx_is_valid_with_a_dynamic_batch(small_models: Path) -> None:
    proto = onnx.load(str(small_models / art.ONNX))
    onnx.checker.check_model(proto, full_check=True)
    (inp,) = proto.graph.input
    (out,) = proto.graph.output
    assert (inp.name, out.name) == ("x", "y")
    assert inp.type.tensor_type.shape.dim[0].dim_param == "batch"
    session = ort.InferenceSession(str(small_models / art.ONNX), providers=["CPUExecutionProvider"])
    for batch in (1, 7):
        assert session.run(None, {"x": np.zeros((batch, 2), np.float32)})[0].shape == (batch, 1)


def test_raw_weights_match_the_state_dict(small_models: Path) -> None:
    state = art.load_state_dict(small_models / art.STATE_DICT)
    flat = np.fromfile(small_models / art.WEIGHTS, dtype="<f4")
    expected = np.concatenate(
        [state[k].numpy().ravel() for k in manifest(small_models)["weights_order"]]
    )
    np.testing.assert_array_equal(flat, expected)


def test_export_is_byte_reproducible(small_models: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    # Another hash seed than the fixture's run: the bytes must not depend on it.
    done = run_module(
        "callbench.model.export", "--out", str(again), "--samples", str(SMALL_SAMPLES),
        env={"PYTHONHASHSEED": "12345"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = manifest(small_models)["files"], manifest(again)["files"]
    assert {k: v["sha256"] for k, v in first.items()} == {k: v["sha256"] for k, v in second.items()}
    assert (small_models / art.MANIFEST).read_bytes() == (again / art.MANIFEST).read_bytes()
