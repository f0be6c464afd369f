"""The seed study's table (shared/seeds/002_…), mapped to our driver ids."""

from __future__ import annotations

# (row as the seed names it, seconds for 1,000,000 calls, our driver id)
SEED_ROWS: tuple[tuple[str, float, str], ...] = (
    ("Python (torch.nn.Module)", 124.0, "python-eager"),
    ("TorchScript from Python", 54.0, "python-torchscript"),
    ("TorchScript from Java", 35.0, "java-pytorch"),
    ("TorchScript from C++", 44.0, "cpp-torchscript"),
    ("C++ API (LibTorch modules)", 9.0, "cpp-libtorch"),
)
SEED_SOURCE = "shared/seeds/002_60117e6da99f211a.txt (LibTorch 1.11, the author's machine)"
