"""What the contract fixes for every kit alike, which the harness needs too: one home low in
the layers, so the harness reads the contract, never one kit's code (docs/contract.md).

A kit's own copy (C++'s ``kSpinNs`` in paced.hpp, ...) is held to these by the tests.
"""

from __future__ import annotations

# Paced rounds (contract 5): a caller early for its arrival sleeps until this long before it,
# then spins on the clock: a sleep overshoots by tens of microseconds, a call of our MLP takes
# a few. The spin yields the core each turn (sched_yield, which also lets go of Python's GIL),
# so a caller waiting takes nothing from one that is calling.
SPIN_NS = 200_000
