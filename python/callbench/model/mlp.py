"""The reference model: the seed's 2 -> 8 -> 8 -> 1 ReLU MLP, and its target."""

from __future__ import annotations

import torch
from torch import nn

from callbench.model.architecture import LAYERS, state_dict_shapes

__all__ = ["LAYERS", "MLP", "state_dict_shapes", "target"]


class MLP(nn.Module):
    """2 -> 8 -> 8 -> 1, ReLU between layers."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(2, 8)
        self.b = nn.Linear(8, 8)
        self.c = nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.a(x))
        x = torch.relu(self.b(x))
        y: torch.Tensor = self.c(x)
        return y


def target(x: torch.Tensor) -> torch.Tensor:
    """f(x1, x2) = |x1| + x2, shaped [batch, 1]."""
    return (x[:, 0].abs() + x[:, 1]).unsqueeze(1)
