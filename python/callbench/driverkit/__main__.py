"""``python -m callbench.driverkit <driver-id> [contract options]``: run one Python driver.

The driver's setup function comes from its registry line; only its module is
imported, so the NumPy driver's load time and memory do not include torch.
"""

from __future__ import annotations

import importlib
import sys

from callbench.driverkit.serve import main
from callbench.languages.python import entry_point
from callbench.registry import DRIVERS


def run(argv: list[str]) -> int:
    entries = {d.id: d.entry for d in DRIVERS if d.entry is not None}
    if not argv or argv[0] not in entries:
        known = ", ".join(entries)
        print(f"callbench.driverkit: usage: the first argument is one of: {known}", file=sys.stderr)
        return 2
    module_name, function = entry_point(str(entries[argv[0]]))
    setup = getattr(importlib.import_module(module_name), function)
    return main(argv[0], setup, argv[1:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
