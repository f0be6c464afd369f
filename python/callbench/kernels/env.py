"""A small env.json for a kernel run (the harness writes a richer one for driver runs)."""

from __future__ import annotations

import os
import platform
import socket
import sys
from typing import Any

from callbench.harness.environment import cpu_model
from callbench.threads import THREAD_VARIABLES


def kernel_env(threads: int) -> dict[str, Any]:
    """Versions, CPU and thread settings that the kernel figures depend on."""
    import numexpr
    import numpy
    import scipy
    import torch

    return {
        "host": socket.gethostname(),
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "threads": threads,
        # What the libraries report after ``set_runtime_threads``, not just what was asked.
        "effective_threads": {
            "torch": torch.get_num_threads(),
            "numexpr": numexpr.get_num_threads(),
            **{name: os.environ.get(name) for name in THREAD_VARIABLES},
        },
        "cuda_device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "versions": {
            "numpy": numpy.__version__,
            "scipy": scipy.__version__,
            "numexpr": numexpr.__version__,
            "torch": torch.__version__,
        },
    }
