"""A Python driver's entry: ``module:function`` under callbench.drivers, its setup function."""

from __future__ import annotations

import importlib

from callbench.driverkit.model import Setup
from callbench.errors import UsageError

PACKAGE = "callbench.drivers"


def entry_point(entry: str) -> tuple[str, str]:
    """(module, function) of an entry ``module:function``."""
    module, _, function = entry.partition(":")
    return f"{PACKAGE}.{module}", function


def load_setup(entry: str) -> Setup:
    """Import only the entry's module (the NumPy driver's load does not pay for torch)."""
    module_name, function = entry_point(entry)
    if not module_name.removeprefix(f"{PACKAGE}.") or not function:
        raise UsageError(f"{entry!r} is not a driver entry (module:function)")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module_name.startswith(exc.name):
            raise  # a runtime the driver needs is missing: the driver's failure, not usage
        raise UsageError(f"{entry!r}: no module {module_name}") from None
    setup: Setup | None = getattr(module, function, None)
    if setup is None:
        raise UsageError(f"{entry!r}: {module_name} has no function {function}")
    return setup
