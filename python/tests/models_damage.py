"""Ways to damage an artifact set, for the bad-input tests of every driver."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from callbench.model import artifacts as art


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 - 1])


def garble(path: Path) -> None:
    path.write_bytes(b"this is not a model" * 10)


def nan_input(models: Path) -> Path:
    path = models / art.INPUTS
    data = np.fromfile(path, dtype="<f4")
    data[7] = np.nan
    data.tofile(path)
    return path


def partial_sample(models: Path) -> Path:
    """Inputs whose size is not a whole number of samples (8 bytes each)."""
    path = models / art.INPUTS
    path.write_bytes(path.read_bytes() + b"\0\0\0\0")
    return path


def identity_torchscript(path: Path) -> None:
    """A TorchScript module that answers [B, 2] instead of [B, 1]."""
    import torch

    class Identity(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 1.0

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(Identity()), str(path))


def identity_onnx(path: Path) -> None:
    """An ONNX model with the right names that answers [B, 2] instead of [B, 1]."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])],
        "wrong_shape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.save(model, str(path))


def identity_tflite(path: Path) -> None:
    """A LiteRT model with the right names that answers [B, 2] instead of [B, 1]."""
    from callbench.model.litert_model import tflite_bytes

    eye = np.eye(2, dtype=np.float32)
    path.write_bytes(tflite_bytes([(eye, np.zeros(2, dtype=np.float32), False)]))


def identity_vmfb(path: Path) -> None:
    """An IREE module whose main_graph answers [B, 2] instead of [B, 1]."""
    from callbench.model.iree_model import compile_onnx

    onnx_path = path.with_name("identity.onnx")
    identity_onnx(onnx_path)
    path.write_bytes(compile_onnx(onnx_path))
    onnx_path.unlink()


def wrong_shape(path: Path) -> bool:
    """Replace a model by one answering the wrong shape; False where the format cannot."""
    from callbench.model.iree_model import VMFB
    from callbench.model.litert_model import TFLITE

    if path.name == art.ONNX:
        identity_onnx(path)
        return True
    if path.name == TFLITE:
        identity_tflite(path)
        return True
    if path.name == VMFB:
        identity_vmfb(path)
        return True
    if path.name == art.TORCHSCRIPT:
        identity_torchscript(path)
        return True
    return False
