"""A served row's record finished (serving.py's last step): the driver's result line, the last
paced point's outputs checked (every copy's at --processes N: dealing.py says which calls each
holds), and that point's times written beside the record.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from callbench.files import write_atomic
from callbench.harness.copies import Copies, add_up_peaks
from callbench.harness.expected import Expected
from callbench.harness.launch import Live
from callbench.harness.load import dealing
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.load.rate_points import PACED_KEPT, RatePoints
from callbench.harness.options import RunOptions
from callbench.harness.verification import settle
from callbench.records.record import Record
from callbench.records.store import record_folder
from callbench.registry import language_key

PACED_SUFFIX = ".paced.npz"  # the last point's times beside the record


def finish(
    live: Live, options: RunOptions, expected: Expected, max_calls: int, serving: dict[str, Any],
    points: RatePoints,
) -> None:  # fmt: skip
    """The result line and the last paced point's outputs checked (arrival j: call j mod S),
    every copy's at --processes N (dealing.py says which calls each holds)."""
    process = live.process
    assert process is not None
    ended = process.finish(120.0)
    live.process = None
    # Contract 6: the outputs hold the slots the last point filled, slot i sample i mod S.
    calls = min(serving["points"][-1]["calls"], max_calls)
    asked = {"driver": live.spec.id, "calls": max_calls, "batch": options.batch,
             "threads": options.threads} | ({"callers": options.callers}
                                            if options.callers > 1 else {})  # fmt: skip
    record, problem, peaks = live.record, None, []
    if isinstance(ended, list):  # the copies of --processes N
        assert isinstance(process, Copies) and points.deal and points.last_copy_of is not None
        checks = dealing.copy_checks(process, points.deal, points.last_copy_of, max_calls,
                                     expected, options.batch)  # fmt: skip
        for p, (result, check) in enumerate(zip(ended, checks, strict=True)):
            if problem := settle(record, result, asked, live.sent_rounds, process.outputs[p],
                                 expected, check):  # fmt: skip
                problem = f"process {p}: {problem}"
                break
            peaks.append(record.peak_rss_bytes)
        if problem is None:
            add_up_peaks(record, peaks, language_key(live.spec))
    elif "batcher" in serving:  # contract 7: sample slot i holds sample i mod S, S = N x B
        slots = min(serving["points"][-1]["calls"], max_calls * options.batch)
        problem = settle(record, ended, asked, live.sent_rounds, live.workdir / "outputs.f32",
                         expected.of_callers(1, slots, 1))  # fmt: skip
    else:
        want = expected.of_callers(1, calls, options.batch)
        problem = settle(record, ended, asked, live.sent_rounds, live.workdir / "outputs.f32",
                         want)  # fmt: skip
    record.serving = serving
    served = serving["points"][-1]["caller_calls"]
    record.callers_verified = None if problem else sum(1 for n in served if n) or 1
    record.status, record.error = ("failed", problem) if problem else ("ok", None)


def write_paced(run_dir: Path, record: Record, times: ArrivalTimes) -> None:
    """The last point's times beside the record (its first PACED_KEPT arrivals of the windows
    it counted, in arrival order, ns from each due time): ``ns`` its total, ``started`` its
    call's start, ``taken`` when its caller took it; the record says how many."""
    kept = times.first(PACED_KEPT)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, ns=kept.ended, started=kept.started, taken=kept.taken)
    name = record.id + PACED_SUFFIX
    write_atomic(record_folder(run_dir, record) / name, buffer.getvalue())
    assert record.serving is not None
    record.serving["latencies"] = name
    record.serving["latencies_arrivals"] = len(kept.ended)
