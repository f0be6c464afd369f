"""Programs a PyTorch user brings (``--torch``), exported here with ``torch.export``.

Neither is our MLP: a small convolutional policy-value network over an 8x8 board of
8 planes (two outputs), and an MLP with LayerNorm and GELU. Also the archives
``--torch`` refuses, each made from a real one.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import torch


class PolicyValue(torch.nn.Module):
    """board [N, 8, 8, 8] -> policy [N, 64] (logits) and value [N, 1] (tanh)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(8, 4, 3, padding=1)
        self.policy = torch.nn.Linear(4 * 64, 64)
        self.value = torch.nn.Linear(4 * 64, 1)

    def forward(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.conv(board)).flatten(1)
        return self.policy(h), torch.tanh(self.value(h))


class NormGeluMLP(torch.nn.Module):
    """features [N, 6] -> Linear -> LayerNorm -> GELU -> Linear -> y [N, 3]."""

    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Linear(6, 16)
        self.norm = torch.nn.LayerNorm(16)
        self.b = torch.nn.Linear(16, 3)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.b(torch.nn.functional.gelu(self.norm(self.a(features))))


def export(model: torch.nn.Module, example: tuple[torch.Tensor, ...], path: Path) -> Path:
    """The user's two lines: ``torch.export.export`` with a dynamic batch, then save."""
    torch.manual_seed(3)
    for p in model.parameters():
        torch.nn.init.normal_(p, std=0.3)
    batch = torch.export.Dim("batch")
    program = torch.export.export(
        model.eval(), example, dynamic_shapes=tuple({0: batch} for _ in example)
    )
    torch.export.save(program, path)
    return path


def policy_value(path: Path) -> Path:
    return export(PolicyValue(), (torch.zeros(2, 8, 8, 8),), path)


def norm_gelu_mlp(path: Path) -> Path:
    return export(NormGeluMLP(), (torch.zeros(2, 6),), path)


PROGRAMS: dict[str, Callable[[Path], Path]] = {
    "policy_value": policy_value,
    "norm_gelu_mlp": norm_gelu_mlp,
}


class BatchInTheGraph(torch.nn.Module):
    """Builds a tensor of the batch's size: fine exported, but a trace of it keeps the
    example's batch as a constant."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.zeros(x.shape[0], 3) + x.sum(1, keepdim=True)


def batch_in_the_graph(path: Path) -> Path:
    return export(BatchInTheGraph(), (torch.zeros(4, 6),), path)


class HeadsReshape(torch.nn.Module):
    """features [N, 12] -> Linear -> [N, 3, 4] (three heads, reshaped by the batch's size) ->
    softmax in each head -> [N, 12] -> Linear -> y [N, 2]: attention's reshape, which a trace
    of the exported module bakes the example's batch into, as a transformer's."""

    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Linear(12, 12)
        self.b = torch.nn.Linear(12, 2)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        n = features.shape[0]
        heads = self.a(features).reshape(n, 3, 4).softmax(-1)
        return self.b(heads.reshape(n, 12))


def heads_reshape(path: Path) -> Path:
    return export(HeadsReshape(), (torch.zeros(2, 12),), path)


class Encoder(torch.nn.Module):
    """One pre-norm transformer encoder layer: attention over the tokens in ``heads`` heads
    (each head's reshape uses the batch's size), then a GELU MLP, each with a residual."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(width)
        self.qkv = torch.nn.Linear(width, 3 * width)
        self.out = torch.nn.Linear(width, width)
        self.norm2 = torch.nn.LayerNorm(width)
        self.mlp = torch.nn.Sequential(
            torch.nn.Linear(width, 2 * width), torch.nn.GELU(), torch.nn.Linear(2 * width, width)
        )

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        n, t, width = tokens.shape
        q, k, v = self.qkv(self.norm1(tokens)).reshape(n, t, 3, self.heads, -1).unbind(2)
        q, k, v = (a.transpose(1, 2) for a in (q, k, v))  # [n, heads, t, width / heads]
        weights = (q @ k.transpose(-1, -2) / (width // self.heads) ** 0.5).softmax(-1)
        tokens = tokens + self.out((weights @ v).transpose(1, 2).reshape(n, t, width))
        return tokens + self.mlp(self.norm2(tokens))


class TinyViT(torch.nn.Module):
    """image [N, 3, 32, 32] -> 8x8 patches (a strided convolution) -> 16 tokens of 32 and a
    class token, learned positions -> two encoder layers of 4 heads -> LayerNorm -> class
    logits [N, 10]: a small vision transformer, whose trace bakes its batch in."""

    def __init__(self, width: int = 32, layers: int = 2, heads: int = 4) -> None:
        super().__init__()
        self.patches = torch.nn.Conv2d(3, width, 8, stride=8)
        self.cls = torch.nn.Parameter(torch.zeros(1, 1, width))
        self.positions = torch.nn.Parameter(torch.zeros(1, 17, width))
        self.encoders = torch.nn.Sequential(*(Encoder(width, heads) for _ in range(layers)))
        self.norm = torch.nn.LayerNorm(width)
        self.head = torch.nn.Linear(width, 10)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        tokens = self.patches(image).flatten(2).transpose(1, 2)
        cls = self.cls.expand(image.shape[0], -1, -1)
        tokens = self.encoders(torch.cat([cls, tokens], 1) + self.positions)
        return self.head(self.norm(tokens[:, 0]))


def tiny_vit(path: Path) -> Path:
    return export(TinyViT(), (torch.zeros(2, 3, 32, 32),), path)


class NoInputs(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2, 3))

    def forward(self) -> torch.Tensor:
        return self.w * 2


class ScaledBy(torch.nn.Module):
    def forward(self, x: torch.Tensor, scale: float) -> torch.Tensor:
        return x * scale


def no_inputs(path: Path) -> Path:
    torch.export.save(torch.export.export(NoInputs(), ()), path)
    return path


def non_tensor_input(path: Path) -> Path:
    torch.export.save(torch.export.export(ScaledBy(), (torch.zeros(2, 3), 2.0)), path)
    return path


def rewritten(source: Path, path: Path, suffix: str, change: Callable[[bytes], bytes]) -> Path:
    """A copy of the archive ``source`` with the member ending in ``suffix`` changed."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            dst.writestr(info, change(data) if info.filename.endswith(suffix) else data)
    return path


def another_version(path: Path) -> Path:
    """The archive's version record rewritten to one no torch has written."""
    good = policy_value(path.with_name("good.pt2"))
    return rewritten(good, path, "/archive_version", lambda _: b"99")


def pickled_weight(path: Path) -> Path:
    """A weight marked as stored by pickle: what torch.export.load would unpickle."""

    def mark(data: bytes) -> bytes:
        config = json.loads(data)
        first = next(iter(config["config"].values()))
        first["use_pickle"] = True
        return json.dumps(config).encode()

    good = norm_gelu_mlp(path.with_name("good.pt2"))
    return rewritten(good, path, "_weights_config.json", mark)


def not_a_program(path: Path) -> Path:
    path.write_bytes(b"not a zip at all")
    return path
