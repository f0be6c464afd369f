"""Whether this host can run CUDA work, and why not: the probes the GPU drivers and the CUDA
kernels share. Nothing heavy at import: torch is imported by the torch probe only, CuPy by
the CuPy probe only, and neither needs the kernels' optional dependencies (numexpr), which a
GPU host's Python may lack."""

from __future__ import annotations

import importlib
from typing import Any

NO_DEVICE = "no CUDA device"
NO_CUPY = "cupy not installed"


def torch_reason() -> str | None:
    """None when torch can use a CUDA device, else why not."""
    import torch

    return (
        None if torch.cuda.is_available() else f"{NO_DEVICE} (torch.cuda.is_available() is False)"
    )


def load_cupy() -> tuple[Any, str | None]:
    """``(cupy, None)`` when CuPy and a device are usable, else ``(None, reason)``."""
    try:
        cp = importlib.import_module("cupy")
    except ImportError:
        return None, f"{NO_CUPY} (optional: pip install a cupy-cuda wheel matching your CUDA)"
    try:
        count = int(cp.cuda.runtime.getDeviceCount())
    except Exception as exc:  # CuPy raises its own error when there is no driver
        return None, f"{NO_DEVICE} ({type(exc).__name__})"
    return (cp, None) if count > 0 else (None, NO_DEVICE)
