"""Python drivers registered with the harness."""

from __future__ import annotations

import sys

from callbench.catalogue import DriverSpec

_RUNTIMES = (
    ("python-eager", "torch", "mlp_state_dict.pt"),
    ("python-eager-inference", "torch", "mlp_state_dict.pt"),
    ("python-torchscript", "torch.jit", "mlp_torchscript.pt"),
    ("python-torchscript-frozen", "torch.jit", "mlp_torchscript.pt"),
    ("python-onnxruntime", "onnxruntime", "mlp.onnx"),
    ("python-onnxruntime-iobinding", "onnxruntime", "mlp.onnx"),
    ("python-numpy", "numpy", "mlp_weights.f32"),
)


# Independent plain callers (callbench.independent): a user's loop, outside our protocol.
_INDEPENDENT = (
    ("independent-python-eager", "torch", "mlp_state_dict.pt", "eager_caller"),
    ("independent-python-torchscript", "torch.jit", "mlp_torchscript.pt", "torchscript_caller"),
    ("independent-python-onnxruntime", "onnxruntime", "mlp.onnx", "onnxruntime_caller"),
)


def _command(driver_id: str) -> list[str]:
    # -W ignore: torch.jit's deprecation warnings are not the user's problem here.
    return [sys.executable, "-W", "ignore", "-m", "callbench.drivers", driver_id]


def _independent(module: str) -> list[str]:
    return [sys.executable, "-W", "ignore", "-m", f"callbench.independent.{module}"]


DRIVERS: list[DriverSpec] = [
    DriverSpec(
        id=driver_id,
        language="Python",
        runtime=runtime,
        artifact=artifact,
        command=lambda driver_id=driver_id: _command(driver_id),  # type: ignore[misc]
    )
    for driver_id, runtime, artifact in _RUNTIMES
]
DRIVERS += [
    DriverSpec(
        id=driver_id,
        language="Python",
        runtime=runtime,
        artifact=artifact,
        command=lambda module=module: _independent(module),  # type: ignore[misc]
    )
    for driver_id, runtime, artifact, module in _INDEPENDENT
]
