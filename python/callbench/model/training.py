"""Deterministic training of the reference MLP on |x1| + x2 over [-10, 10)^2."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch

from callbench.model.architecture import HIDDEN
from callbench.model.mlp import MLP, target
from callbench.model.wide_mlp import WideMLP

LOW, HIGH = -10.0, 10.0


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 20240601
    train_points: int = 32768
    heldout_points: int = 8192
    batch_size: int = 256
    epochs: int = 60
    learning_rate: float = 1e-2

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def family_training(hidden: int) -> TrainConfig:
    """A brief fit for a wider model, but a real one (its RMSE is in its manifest): fewer
    epochs as a step costs more (20 at width 64, 8 at 512, 2 at 2048), and a smaller
    step size, as Adam on a wide layer overshoots at the reference's 1e-2."""
    return TrainConfig(epochs=max(2, min(20, 4096 // hidden)), learning_rate=1e-3)


def uniform_points(n: int, generator: torch.Generator) -> torch.Tensor:
    return torch.rand(n, 2, generator=generator) * (HIGH - LOW) + LOW


def rmse(model: MLP, x: torch.Tensor) -> float:
    with torch.no_grad():
        return math.sqrt(float(torch.mean((model(x) - target(x)) ** 2)))


def train(config: TrainConfig, hidden: int = HIDDEN) -> tuple[MLP, float]:
    """The trained model and its RMSE against the target on held-out points.

    One thread and a fixed seed make every float of the result repeatable on
    the same torch version.
    """
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    x_train = uniform_points(config.train_points, generator)
    x_heldout = uniform_points(config.heldout_points, generator)
    y_train = target(x_train)

    model = MLP() if hidden == HIDDEN else WideMLP(hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    steps = config.epochs * (config.train_points // config.batch_size)
    # Cosine decay: large steps find the kinks of |x1|, small ones settle them.
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    loss_fn = torch.nn.MSELoss()
    model.train()
    for _ in range(config.epochs):
        order = torch.randperm(config.train_points, generator=generator)
        for start in range(0, config.train_points - config.batch_size + 1, config.batch_size):
            idx = order[start : start + config.batch_size]
            optimizer.zero_grad()
            loss = loss_fn(model(x_train[idx]), y_train[idx])
            loss.backward()
            optimizer.step()
            schedule.step()
    model.eval()
    return model, rmse(model, x_heldout)
