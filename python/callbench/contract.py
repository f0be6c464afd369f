"""What the contract fixes for every kit alike, which the harness needs too: one home low in
the layers, so the harness reads the contract, never one kit's code (docs/contract.md).

A kit's own copy (C++'s ``kSpinNs`` in paced.hpp, ...) is held to these by the tests.
"""

from __future__ import annotations

# Paced rounds (contracts 5 and 6): a caller early for its arrival sleeps until this long before it,
# then spins on the clock: a sleep overshoots by tens of microseconds, a call of our MLP takes
# a few. The spin yields the core each turn (sched_yield, which also lets go of Python's GIL),
# so a caller waiting takes nothing from one that is calling.
SPIN_NS = 200_000

# Paced rounds (contract 6): a round without a START begins this long after the driver's
# set-up is done, so releasing its callers is off the clock too. The harness gives a START
# of its own (harness/load/serving.py), further ahead: reading the schedule is set-up as well.
PACED_LEAD_NS = 1_000_000

# Paced rounds at N copies under a shared counter (``paced FILE START COUNTER``): a copy
# leaves this in all three times of an arrival another copy took, so the harness finds each
# arrival's copy as the one whose times are not this (int64's least: no real time is).
NOT_SERVED_NS = -(2**63)
