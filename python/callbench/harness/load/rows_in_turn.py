"""Several rows served at a rate taking turns: each loaded and its curve served, then every
row and N's first search, then every one's second, and so on; then each ended.

One row's searches served back to back sample one stretch of the host: on this shared VM
the host's state moves over minutes (two runs of one commit have had one row's closed loop
1.8x apart), so a row's interval from back-to-back searches says how that stretch varied,
not the run, and a second run misses it. Taken in turns, every row's searches spread over
the whole run, so its interval carries the run's drift, and two rows' searches meet the
same moments of it. The price: every row's driver stays loaded, waiting on its input (no
calls, no CPU), until its last step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from callbench.harness import console
from callbench.harness.load.serving import RowAtRate
from callbench.harness.processes import kill_all
from callbench.records.record import Record


def serve_in_turn(
    rows: Sequence[RowAtRate],
    pinned: Callable[[RowAtRate], AbstractContextManager[object]],
    said: Callable[[RowAtRate], None] = lambda row: None,
) -> list[Record]:
    """Serve ``rows`` taking turns, each step inside ``pinned(row)`` (the harness kept off
    that row's cores); ``said(row)`` once a row is ended. Every driver ended, also on a stop."""
    for row in rows:
        row.in_turn = len(rows)
    told: set[int] = set()  # the rows said so far (by index): each said once, when it ended

    def tell_ended() -> None:
        for index, row in enumerate(rows):
            if row.ended and index not in told:
                told.add(index)
                said(row)

    try:
        for row in rows:
            with pinned(row):
                row.begin()
            tell_ended()
        for index in range(max((row.repeats for row in rows), default=0)):
            turn = [row for row in rows if not row.ended]
            if turn:
                console.say(f"  search {index + 1} of each of {len(turn)} rows and N")
            for row in turn:
                with pinned(row):
                    row.search(index)
                tell_ended()  # a row that failed in its search
        records = []
        for row in rows:
            with pinned(row):
                records.append(row.end())
            tell_ended()
        return records
    finally:
        kill_all()
