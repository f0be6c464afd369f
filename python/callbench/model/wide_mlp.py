"""The family of model sizes: the reference MLP's architecture at a wider hidden width.

A subclass, so that ``MLP``'s own source (which TorchScript and the ONNX
exporter record beside the graph) and with it the reference model's artifacts
stay the same bytes.
"""

from __future__ import annotations

from pathlib import Path

from torch import nn

from callbench.model.architecture import HIDDEN, INPUT_WIDTH, OUTPUT_WIDTH
from callbench.model.mlp import MLP


class WideMLP(MLP):
    """2 -> hidden -> hidden -> 1, ReLU between layers: MLP's forward on wider layers."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.a = nn.Linear(INPUT_WIDTH, hidden)
        self.b = nn.Linear(hidden, hidden)
        self.c = nn.Linear(hidden, OUTPUT_WIDTH)


def mlp_of_width(hidden: int) -> MLP:
    """The module for a width of the family: the reference's own class at its width."""
    return MLP() if hidden == HIDDEN else WideMLP(hidden)


def mlp_from_state_dict(path: Path) -> MLP:
    """Our MLP at whichever width of the family the state_dict at ``path`` holds, its
    weights loaded (checked, never unpickling code), in eval mode."""
    from callbench.model.artifacts import load_state_dict

    state = load_state_dict(path, hidden=None)
    model = mlp_of_width(state["a.weight"].shape[0])
    model.load_state_dict(state)
    return model.eval()
