"""The MLP's shape, without importing torch (readers of raw weights need only this).

The reference model is 2 -> 8 -> 8 -> 1; the family of model sizes keeps the
architecture and widens both hidden layers (2 -> H -> H -> 1).
"""

from __future__ import annotations

import math

from callbench.model.tensors import INPUTS_STEM, REFERENCE_STEM, Signature, tensors

INPUT_WIDTH, HIDDEN, OUTPUT_WIDTH = 2, 8, 1
FAMILY_WIDTHS = (64, 512, 2048)  # the hidden widths `callbench export` writes besides 8
# Contract 3: one float32 input x [2] in inputs.f32, one output y [1] in reference.f32.
MLP_SIGNATURE = Signature(
    tensors(INPUTS_STEM, [("x", "float32", [INPUT_WIDTH])]),
    tensors(REFERENCE_STEM, [("y", "float32", [OUTPUT_WIDTH])]),
)


def layers(hidden: int = HIDDEN) -> tuple[tuple[str, int, int], ...]:
    """(name, fan_in, fan_out) per layer; names match the seed's MyNN (a, b, c)."""
    return (("a", INPUT_WIDTH, hidden), ("b", hidden, hidden), ("c", hidden, OUTPUT_WIDTH))


def weight_count(hidden: int = HIDDEN) -> int:
    """Parameters: every layer's weights and biases."""
    return sum(fan_out * fan_in + fan_out for _, fan_in, fan_out in layers(hidden))


def hidden_of_count(count: int) -> int | None:
    """The hidden width H whose 2 -> H -> H -> 1 MLP has ``count`` parameters (H² + 5H + 1),
    or None when no width has that many."""
    root = math.isqrt(21 + 4 * count)
    hidden = (root - 5) // 2
    return hidden if hidden > 0 and weight_count(hidden) == count else None


def flops_per_sample(hidden: int = HIDDEN) -> int:
    """Floating-point operations of one sample's forward pass: a multiply and an add per
    weight, an add per bias, a max per hidden unit."""
    matmul = sum(2 * fan_in * fan_out for _, fan_in, fan_out in layers(hidden))
    biases = sum(fan_out for _, _, fan_out in layers(hidden))
    return matmul + biases + 2 * hidden


LAYERS: tuple[tuple[str, int, int], ...] = layers()
WEIGHT_COUNT = weight_count()


def state_dict_shapes(hidden: int = HIDDEN) -> dict[str, tuple[int, ...]]:
    """The exact keys and shapes a state_dict of this architecture has."""
    shapes: dict[str, tuple[int, ...]] = {}
    for name, fan_in, fan_out in layers(hidden):
        shapes[f"{name}.weight"] = (fan_out, fan_in)
        shapes[f"{name}.bias"] = (fan_out,)
    return shapes
