"""The harness's numpy without transparent huge pages; its drivers' environment as given.

The harness's own big arrays are short-lived and touched once: a rate point's times read
back (up to hundreds of MB), its schedule, the copies its percentiles make. numpy asks for
transparent huge pages for every array of 4 MB and more (madvise(MADV_HUGEPAGE)), and on
this VM a fresh huge page costs about 10 ms a MB to fault in: 170 MB of times read back in
1.7 s with them, 0.06 s without, seconds a point while the drivers' cores idle. numpy reads
NUMPY_MADVISE_HUGEPAGE once, when it is imported (numpy.org/doc/stable/reference/
global_state.html), so the ``callbench`` command imports this module first (cli/__init__).
A user's own setting is kept, and a driver gets the environment as the user gave it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

VARIABLE = "NUMPY_MADVISE_HUGEPAGE"
USERS = os.environ.get(VARIABLE)
os.environ.setdefault(VARIABLE, "0")


def as_given(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with this module's setting taken back out (a driver's numpy as the user's)."""
    given = dict(env)
    if USERS is None:
        given.pop(VARIABLE, None)
    else:
        given[VARIABLE] = USERS
    return given
