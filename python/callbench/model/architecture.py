"""The MLP's shape, without importing torch (readers of raw weights need only this)."""

from __future__ import annotations

# (name, fan_in, fan_out) per layer; names match the seed's MyNN (a, b, c).
LAYERS: tuple[tuple[str, int, int], ...] = (("a", 2, 8), ("b", 8, 8), ("c", 8, 1))
WEIGHT_COUNT = sum(fan_out * fan_in + fan_out for _, fan_in, fan_out in LAYERS)


def state_dict_shapes() -> dict[str, tuple[int, ...]]:
    """The exact keys and shapes a state_dict of this architecture has."""
    shapes: dict[str, tuple[int, ...]] = {}
    for name, fan_in, fan_out in LAYERS:
        shapes[f"{name}.weight"] = (fan_out, fan_in)
        shapes[f"{name}.bias"] = (fan_out,)
    return shapes
