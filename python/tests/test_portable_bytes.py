"""The same weights give the same portable artifacts in every clone, wherever it lies:
no ONNX or TorchScript file holds a path of the machine that wrote it."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from callbench.model import artifacts as art
from callbench.model.export_options import HASH_SEED
from callbench.paths import REPO_ROOT

# Each portable artifact's sha256 from a seeded, untrained MLP: the exporters' own work,
# without the minutes of training (which is seeded and tested elsewhere).
HASHES = """
import hashlib, json, sys
import torch
from callbench.model.mlp import MLP
from callbench.model.portable import INPUT_SEED, make_inputs, portable_blobs, quiet_exporters
quiet_exporters()
torch.manual_seed(7)
blobs = portable_blobs(MLP(), make_inputs(64, INPUT_SEED), {})
json.dump({name: hashlib.sha256(data).hexdigest() for name, (data, _, _) in blobs.items()},
          sys.stdout)
"""


def hashes_from(source: Path) -> dict[str, str]:
    """The portable artifacts' sha256, exported by the package under ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source), "PYTHONHASHSEED": HASH_SEED}
    done = subprocess.run([sys.executable, "-c", HASHES], cwd=source, capture_output=True,
                          text=True, timeout=300, check=False, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, str] = json.loads(done.stdout)
    return found


def test_a_tree_at_another_path_exports_the_same_bytes(tmp_path: Path) -> None:
    elsewhere = tmp_path / "another" / "clone" / "python"
    shutil.copytree(REPO_ROOT / "python" / "callbench", elsewhere / "callbench",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    here, there = hashes_from(REPO_ROOT / "python"), hashes_from(elsewhere)
    assert {art.ONNX, art.TORCHSCRIPT} <= set(here)
    assert here == there


def machine_paths() -> list[bytes]:
    """Paths of this machine an exporter could record: the clone, the environment, home."""
    return [str(p).encode() for p in (REPO_ROOT, Path(sys.prefix), Path.home())]


def test_no_portable_artifact_holds_a_path_of_this_machine(small_models: Path) -> None:
    manifest = art.read_manifest(small_models)
    portable = [n for n, f in manifest["files"].items() if f.get("reproducible", True)]
    assert {art.ONNX, art.TORCHSCRIPT} <= set(portable)
    for name in portable:
        data = (small_models / name).read_bytes()
        for path in machine_paths():
            assert path not in data, (name, path)
        assert b'File "/' not in data, name  # a stack trace's frame


def test_the_torchscript_archive_keeps_its_code_and_extra_files_without_debug_records() -> None:
    import torch

    from callbench.model.mlp import MLP
    from callbench.model.path_free import torchscript_without_debug_records

    torch.manual_seed(3)
    model = MLP()
    buffer = io.BytesIO()
    torch.jit.save(torch.jit.script(model), buffer, _extra_files={"signature.txt": "x f32"})
    before = torch._C.PyTorchFileReader(io.BytesIO(buffer.getvalue())).get_all_records()
    assert any(name.endswith(".debug_pkl") for name in before)
    stripped = torchscript_without_debug_records(buffer.getvalue())
    after = torch._C.PyTorchFileReader(io.BytesIO(stripped)).get_all_records()
    assert sorted(after) == sorted(n for n in before if not n.endswith(".debug_pkl"))
    extra = {"signature.txt": ""}
    loaded = torch.jit.load(io.BytesIO(stripped), _extra_files=extra)
    assert extra["signature.txt"] == b"x f32"
    x = torch.linspace(-5, 5, 10).reshape(5, 2)
    with torch.no_grad():
        assert torch.equal(loaded(x), model(x))


@pytest.mark.parametrize("kind", ["graph", "function"])
def test_onnx_stack_traces_go_and_other_metadata_stays(kind: str) -> None:
    import onnx
    from onnx import helper

    from callbench.model.path_free import STACK_TRACE, onnx_without_stack_traces

    node = helper.make_node("Relu", ["x"], ["y"], doc_string='File "/home/u/m.py", line 3')
    helper.set_metadata_props(node, {STACK_TRACE: 'File "/home/u/m.py"', "namespace": "m/relu"})
    value = [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [1]) for n in "xy"]
    graph = helper.make_graph([node] if kind == "graph" else [], "g", value[:1], value[1:])
    model = helper.make_model(graph)
    if kind == "function":
        model.functions.append(helper.make_function("local", "f", ["x"], ["y"], [node], []))
    stripped = onnx_without_stack_traces(model)
    where = stripped.graph.node if kind == "graph" else stripped.functions[0].node
    assert [(p.key, p.value) for p in where[0].metadata_props] == [("namespace", "m/relu")]
    assert where[0].doc_string == ""
    assert b"/home/u" not in stripped.SerializeToString()
