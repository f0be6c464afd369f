"""The exporter: a real fit, three formats that agree, and the same bytes every time."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch

from callbench.model import artifacts as art
from callbench.model.architecture import flops_per_sample, hidden_of_count, weight_count
from callbench.model.export_family import parse_widths
from callbench.model.mlp import MLP
from callbench.model.wide_mlp import WideMLP
from tests.conftest import SMALL_SAMPLES, SMALL_WIDTH, run_module


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
    from callbench.model.iree_model import VMFB
    from callbench.model.litert_model import TFLITE

    expected = {art.STATE_DICT, art.TORCHSCRIPT, art.ONNX, art.WEIGHTS, art.INPUTS, art.REFERENCE,
                AOTI_PACKAGE, EXECUTORCH_XNNPACK, EXECUTORCH_PORTABLE, TFLITE, VMFB}  # fmt: skip
    assert set(files) == expected
    art.verify(small_models, expected)
    assert files[art.INPUTS]["shape"] == [SMALL_SAMPLES, 2]


def test_inputs_are_uniform_in_the_half_open_square(small_models: Path) -> None:
    x = art.read_inputs(small_models)
    assert x.shape == (SMALL_SAMPLES, 2)
    assert x.min() >= -10.0 and x.max() < 10.0
    assert abs(float(x.mean())) < 0.2  # uniform over [-10, 10): mean near 0


def assert_formats_agree(folder: Path, model: MLP) -> None:
    """``model`` (given ``folder``'s state_dict), its TorchScript and its ONNX all give
    ``folder``'s reference outputs."""
    x = art.read_inputs(folder)
    reference = art.read_reference(folder)
    model.eval()
    scripted = torch.jit.load(str(folder / art.TORCHSCRIPT))
    session = ort.InferenceSession(str(folder / art.ONNX), providers=["CPUExecutionProvider"])
    with torch.inference_mode():
        eager = model(torch.from_numpy(x)).numpy()
        script = scripted(torch.from_numpy(x)).numpy()
    onnx_out = session.run(None, {"x": x})[0]
    np.testing.assert_allclose(eager, reference, atol=1e-5, rtol=0)
    np.testing.assert_allclose(script, reference, atol=1e-5, rtol=0)
    np.testing.assert_allclose(onnx_out, reference, atol=1e-5, rtol=0)


def test_state_dict_torchscript_and_onnx_agree(small_models: Path) -> None:
    model = MLP()
    model.load_state_dict(art.load_state_dict(small_models / art.STATE_DICT))
    assert_formats_agree(small_models, model)


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
        "--widths", SMALL_WIDTH, env={"PYTHONHASHSEED": "12345"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = manifest(small_models)["files"], manifest(again)["files"]
    assert {k: v["sha256"] for k, v in first.items()} == {k: v["sha256"] for k, v in second.items()}
    assert (small_models / art.MANIFEST).read_bytes() == (again / art.MANIFEST).read_bytes()
    assert (small_models / art.FAMILY).read_bytes() == (again / art.FAMILY).read_bytes()


def test_the_family_lists_each_width_with_its_files_and_size(small_models: Path) -> None:
    family = json.loads((small_models / art.FAMILY).read_text())
    assert family["reference"] == {"hidden": 8, "folder": ".", "parameters": 105,
                                   "flops_per_sample": 209}  # fmt: skip
    (width,) = family["widths"]
    hidden = int(SMALL_WIDTH)
    assert width["hidden"] == hidden and width["folder"] == f"widths/{hidden}"
    # 2-16-16-1: 2*16+16 + 16*16+16 + 16+1 parameters; two flops a weight, one a bias and a ReLU.
    assert width["parameters"] == weight_count(hidden) == 337
    assert width["flops_per_sample"] == flops_per_sample(hidden) == 2 * (32 + 256 + 16) + 33 + 32
    assert width["fit_rmse"] < 0.5
    folder = small_models / width["folder"]
    assert {n: art.sha256_of(folder / n) for n in width["files"]} == width["files"]
    art.verify(folder, set(width["files"]))  # its own manifest, as the reference's
    assert set(width["files"]) == {art.STATE_DICT, art.TORCHSCRIPT, art.ONNX, art.WEIGHTS,
                                   art.INPUTS, art.REFERENCE}  # fmt: skip
    assert manifest(folder)["files"][art.WEIGHTS]["shape"] == [337]
    # The reference model's manifest does not know of the family: its bytes stay as they were.
    assert "widths" not in (small_models / art.MANIFEST).read_text()


def test_a_width_of_the_family_agrees_in_every_format(small_models: Path) -> None:
    hidden = int(SMALL_WIDTH)
    folder = small_models / art.family_folder(hidden)
    model = WideMLP(hidden)
    model.load_state_dict(art.load_state_dict(folder / art.STATE_DICT, hidden))
    assert_formats_agree(folder, model)
    flat = np.fromfile(folder / art.WEIGHTS, dtype="<f4")
    state = model.state_dict()
    np.testing.assert_array_equal(
        flat, np.concatenate([state[k].numpy().ravel() for k in manifest(folder)["weights_order"]])
    )


def test_a_weight_count_names_its_width() -> None:
    assert [hidden_of_count(weight_count(h)) for h in (1, 8, 16, 64, 512, 2048)] == [
        1, 8, 16, 64, 512, 2048
    ]  # fmt: skip
    assert hidden_of_count(106) is None and hidden_of_count(0) is None


def test_widths_are_parsed_and_bad_ones_refused(tmp_path: Path) -> None:
    assert parse_widths("2048, 64,512,64") == (64, 512, 2048)
    assert parse_widths("") == () and parse_widths("8") == ()  # 8 is the reference itself
    done = run_module("callbench.model.export", "--out", str(tmp_path), "--widths", "64,wide")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith("--widths: 'wide' is not a positive whole number")
    )
    assert not (tmp_path / art.MANIFEST).exists()  # refused before any work


def test_bench_exports_again_for_an_artifact_an_older_export_lacks(
    models_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbench.cli import bench
    from callbench.model import export_options
    from callbench.model.litert_model import TFLITE

    commands: list[list[str]] = []

    def run(
        command: list[str], env: dict[str, str], check: bool = False
    ) -> subprocess.CompletedProcess[str]:
        assert env["PYTHONHASHSEED"] == "0"
        commands.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(export_options.subprocess, "run", run)
    bench.ensure_models(models_copy, {art.ONNX, TFLITE})
    assert commands == []  # everything there and as the manifest says
    path = models_copy / art.MANIFEST
    manifest = json.loads(path.read_text())
    del manifest["files"][TFLITE]  # as written before the exporter knew LiteRT
    path.write_text(json.dumps(manifest))
    (models_copy / TFLITE).unlink()
    bench.ensure_models(models_copy, {art.ONNX})
    assert commands == []  # no driver of this run needs it
    bench.ensure_models(models_copy, {art.ONNX, TFLITE})
    assert commands and commands[0][1:3] == ["-m", "callbench.model.export"]
