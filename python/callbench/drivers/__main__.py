"""``python -m callbench.drivers <driver-id> [contract options]``: run one Python driver."""

from __future__ import annotations

import sys

from callbench.drivers import eager, numpy_forward, onnxruntime_driver, torchscript
from callbench.protocol import DriverInfo, Setup, main

REGISTRY: dict[str, tuple[DriverInfo, Setup]] = {
    "python-eager": (eager.info(""), eager.plain),
    "python-eager-inference": (eager.info("inference"), eager.inference),
    "python-torchscript": (torchscript.info(""), torchscript.plain),
    "python-torchscript-frozen": (torchscript.info("frozen"), torchscript.frozen),
    "python-onnxruntime": (onnxruntime_driver.info(""), onnxruntime_driver.plain),
    "python-onnxruntime-iobinding": (
        onnxruntime_driver.info("iobinding"),
        onnxruntime_driver.iobinding,
    ),
    "python-numpy": (numpy_forward.INFO, numpy_forward.setup),
}


def run(argv: list[str]) -> int:
    if not argv or argv[0] not in REGISTRY:
        known = ", ".join(REGISTRY)
        print(f"callbench.drivers: usage: first argument must be a driver id: {known}", file=sys.stderr)
        return 2
    info, setup = REGISTRY[argv[0]]
    return main(info, setup, argv[1:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
