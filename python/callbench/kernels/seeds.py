"""The seeds' own figures, so the report can show them beside ours.

All times are per call, in milliseconds, as the posts printed them
(``%timeit`` mean of 7 runs, or a total over 1000 iterations divided by
1000). They were measured with each library's default thread count.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seed:
    file: str
    title: str
    hardware: str
    software: str
    shape: tuple[int, ...]
    dtype: str


SEED_000 = Seed(
    "000_82c36811964bfabd.txt",
    "numpyのexp, log等はtorchで高速化できる (Qiita, 2022)",
    "Core i7 10700F (CPU); NVIDIA GeForce RTX 3060, CUDA 11.4 (GPU rows)",
    "numpy 1.20.1, numexpr 2.7.1, torch 1.11.0, scipy 1.7.3",
    (10_000, 10_000),
    "float64",
)
SEED_001 = Seed(
    "001_3ebec5a199f4ec3e.txt",
    "PyTorchでbatchごとに内積を計算したい!",
    "not stated",
    "python 3.6.0, pytorch 0.4.1",
    (500, 500),
    "float32",
)
SEED_003 = Seed(
    "003_119b3db1de8819e8.txt",
    "CuPy解説 (Chainer Meetup #1, 2015)",
    "not stated",
    "CuPy / Chainer v1.5",
    (1000, 1000),
    "int64",
)


@dataclass(frozen=True)
class SeedFigure:
    kernel: str  # our kernel id for the same computation
    ms: float
    seed: Seed
    note: str | None = None


FIGURES: tuple[SeedFigure, ...] = (
    SeedFigure("kernel-exp-numpy", 965.0, SEED_000),
    SeedFigure("kernel-exp-numexpr", 89.8, SEED_000),
    SeedFigure("kernel-exp-torch", 88.8, SEED_000),
    SeedFigure("kernel-exp-torch-copy", 168.0, SEED_000),
    SeedFigure("kernel-log-numpy", 1770.0, SEED_000),
    SeedFigure("kernel-log-numexpr", 95.6, SEED_000),
    SeedFigure("kernel-log-torch", 81.9, SEED_000),
    SeedFigure("kernel-log-torch-copy", 163.0, SEED_000),
    SeedFigure("kernel-erf-scipy", 387.0, SEED_000),
    SeedFigure("kernel-tanh-numexpr", 89.1, SEED_000, "listed by the seed as numexpr erf"),
    SeedFigure("kernel-erf-torch", 93.6, SEED_000),
    SeedFigure("kernel-erf-torch-copy", 171.0, SEED_000),
    SeedFigure("kernel-logsumexp-scipy", 1200.0, SEED_000),
    SeedFigure("kernel-logsumexp-numexpr", 282.0, SEED_000),
    SeedFigure("kernel-logsumexp-torch", 240.0, SEED_000),
    SeedFigure("kernel-logsumexp-torch-copy", 312.0, SEED_000),
    SeedFigure("kernel-cuda-h2d-torch", 73.8, SEED_000),
    SeedFigure("kernel-cuda-exp-torch", 2.56, SEED_000, "seed's input was float32 torch.rand"),
    SeedFigure("kernel-batchdot-mulsum", 0.0264, SEED_001),
    SeedFigure("kernel-batchdot-bmm", 0.964, SEED_001),
    SeedFigure("kernel-cuda-batchdot-mulsum", 0.0259, SEED_001),
    SeedFigure("kernel-cuda-batchdot-bmm", 0.608, SEED_001),
    SeedFigure("kernel-cuda-batchdot-backward-mulsum", 0.163, SEED_001),
    SeedFigure("kernel-cuda-batchdot-backward-bmm", 1.13, SEED_001),
    SeedFigure("kernel-transpose-scale-numpy", 2.929, SEED_003, "2929 ms / 1000 calls"),
    SeedFigure("kernel-cuda-transpose-scale-cupy", 0.585, SEED_003, "585 ms / 1000 calls"),
    SeedFigure("kernel-cuda-transpose-scale-cupy-pool", 0.123, SEED_003, "123 ms / 1000 calls"),
)

BY_KERNEL: dict[str, SeedFigure] = {f.kernel: f for f in FIGURES}
