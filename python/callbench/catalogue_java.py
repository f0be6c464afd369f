"""java drivers registered with the harness (filled in by the java work)."""

from __future__ import annotations

from callbench.catalogue import DriverSpec

DRIVERS: list[DriverSpec] = []
