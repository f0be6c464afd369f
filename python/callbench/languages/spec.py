"""DriverSpec: what the harness knows of one driver, as declared in the registry."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from callbench.roles import SeedRole


def always_available() -> str | None:
    return None


@dataclass(frozen=True)
class DriverSpec:
    """One driver: its stable id, what it measures, and how to start it.

    ``command`` returns the program and its leading arguments; the harness
    appends the contract options. ``available`` returns None when the driver
    can run here, or the reason it cannot (the skipped record's error).
    ``source`` is the file that holds the driver's code, so the registry is
    one hop from every driver.
    """

    id: str
    language: str
    runtime: str
    artifact: str
    source: Path
    command: Callable[[], Sequence[str]]
    available: Callable[[], str | None] = always_available
    # Variables the program needs besides the harness's own (native library paths).
    env: Callable[[], dict[str, str]] = field(default=dict)
    # Python drivers only: ``module:function`` under callbench.drivers.
    entry: str | None = None
    # What the driver is for besides the main table, set on its registry line
    # (``callbench.roles``: SWEEP, it runs in the batch and thread sweeps; FLOOR).
    roles: frozenset[str] = frozenset()
    # Set by ``registry.seed_row``: the seed study's row this driver stands for.
    seed: SeedRole | None = None
    # The programs that build the driver (cmake, cargo, mvn, ...); none when nothing is built.
    # With them on PATH, a driver that cannot run is a build someone forgot, not a skip.
    toolchain: tuple[str, ...] = ()
    # Contract 4: how the driver's callers hold the model (SHARED or PER_CALLER, set by
    # ``registry.callers``); None: it runs one caller, for the reason ``one_caller`` says.
    callers: str | None = None
    one_caller: str = "its driver is not yet split into a load and each caller's own state"
    # A plain caller of our MLP alone (one float32 input x, one output y): skipped, saying so,
    # on a model the user brought (registry.mlp_only).
    mlp_only: bool = False
    # roles.RUNTIME_DEFAULT: the row whose set-up for many callers this twin keeps the
    # runtime's default of (registry.runtime_default).
    default_of: str | None = None

    def missing_tool(self) -> str | None:
        """The first program of the toolchain that is not on PATH here, or None."""
        return next((tool for tool in self.toolchain if shutil.which(tool) is None), None)


def built_by(spec: DriverSpec, toolchain: Sequence[str], install: str) -> DriverSpec:
    """``spec`` is built by ``toolchain``; when one of its programs is not on PATH,
    ``available`` says so and what to ``install``, not which file the build would make."""
    can_run = spec.available
    built = replace(spec, toolchain=tuple(toolchain))

    def available() -> str | None:
        reason = can_run()
        if reason is not None and (tool := built.missing_tool()) is not None:
            return f"no `{tool}` on PATH, so {spec.id} is not built: install {install}"
        return reason

    return replace(built, available=available)
