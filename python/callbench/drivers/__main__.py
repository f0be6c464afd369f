"""``python -m callbench.drivers <driver-id> [contract options]``: run one Python driver.

Only the chosen driver's module is imported, so the NumPy driver's load time
and peak memory do not include torch.
"""

from __future__ import annotations

import importlib
import sys

from callbench.protocol import main

# driver id -> (module under callbench.drivers, setup function in it)
REGISTRY: dict[str, tuple[str, str]] = {
    "python-eager": ("eager", "plain"),
    "python-eager-inference": ("eager", "inference"),
    "python-torchscript": ("torchscript", "plain"),
    "python-torchscript-frozen": ("torchscript", "frozen"),
    "python-onnxruntime": ("onnxruntime_driver", "plain"),
    "python-onnxruntime-iobinding": ("onnxruntime_driver", "iobinding"),
    "python-numpy": ("numpy_forward", "setup"),
}


def run(argv: list[str]) -> int:
    if not argv or argv[0] not in REGISTRY:
        known = ", ".join(REGISTRY)
        print(f"callbench.drivers: usage: first argument must be one of: {known}", file=sys.stderr)
        return 2
    module_name, setup_name = REGISTRY[argv[0]]
    module = importlib.import_module(f"callbench.drivers.{module_name}")
    return main(module.info(argv[0]), getattr(module, setup_name), argv[1:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
