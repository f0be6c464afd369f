"""``python -m callbench.driverkit <driver-id> <module:function> [contract options]``.

Runs one Python driver: the harness passes the id and the entry from its
registry line, so the kit needs no registry; only the entry's module is
imported, so the NumPy driver's load time and memory do not include torch.
"""

from __future__ import annotations

import sys

from callbench.command_line import report_errors
from callbench.driverkit.driver_main import driver_main
from callbench.driverkit.entry import load_setup
from callbench.driverkit.model import Setup

USAGE = "the arguments are <driver-id> <module:function> [contract options]"


def run(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1].startswith("-"):
        print(f"callbench.driverkit: usage: {USAGE}", file=sys.stderr)
        return 2
    driver_id, entry = argv[0], argv[1]
    found: list[Setup] = []

    def find() -> int:
        found.append(load_setup(entry))
        return 0

    # A bad entry is one line like any other error; a driver whose runtime is missing fails.
    status = report_errors(driver_id, find, "--debug" in argv, catch_all=True)
    return status if status else driver_main(driver_id, found[0], argv[2:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
