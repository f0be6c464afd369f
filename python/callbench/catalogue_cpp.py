"""cpp drivers registered with the harness (filled in by the cpp work)."""

from __future__ import annotations

from callbench.catalogue import DriverSpec

DRIVERS: list[DriverSpec] = []
