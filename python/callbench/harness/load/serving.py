"""A row served at a rate: one driver at N callers, its closed loop, then the rate search.

The driver is loaded once. Its closed loop at N comes first (rounds of K calls a caller, then
one latency pass: its throughput is the capacity the curve's shares are of, its p50 and p99
what the report sets beside the paced ones); then each rate point is one ``paced FILE START``
(contract 6) over a Poisson schedule this module writes, starting a lead after it is sent
(LEAD_NS and LEAD_NS_AN_ARRIVAL a scheduled arrival: the driver reads the schedule and sets up
before it), cut into windows (rate_windows.py) that say whether the point was stable; the
curve and the repeated searches (rate_repeats.py) choose the rates. The slots the last
point's arrivals filled are checked against the reference before any of it counts. The
record is the closed loop's (its rounds, its latencies) with ``serving`` holding every point,
the bound, the windows' rule and the rate found with its interval.

A point serves its most windows in one schedule, and the windows it needed (the first whose
last AGREE agree) give its figures: the kits cannot yet stop a schedule part-way, so the
windows past those are served but not counted.
"""

from __future__ import annotations

import io
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from callbench.contract import SPIN_NS
from callbench.driver_options import ONE_CALLER
from callbench.errors import DataError
from callbench.files import write_atomic
from callbench.harness import console, traces
from callbench.harness.contention_probe import Probe
from callbench.harness.expected import Expected
from callbench.harness.launch import Live, Placement, base_record, start, wait_ready
from callbench.harness.load import rate_repeats, rate_search, rate_windows
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.load.window_steal import WindowSteal
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError, kill_all
from callbench.harness.verification import settle
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record, Round
from callbench.records.store import record_folder, write_record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY

# The kits that speak contract 6's paced rounds.
PACED_LANGUAGES = ("python", "cpp")
KIND = rate_search.KIND
# The closed loop: rounds of about ROUND_S each, and a latency pass of at least MIN_CALLS.
CLOSED_ROUNDS = 5
ROUND_S = 0.1
LATENCY_CAP = 100_000
ROUND_LIMIT = 120.0
PACED_SUFFIX = ".paced.npz"
# The last point's times kept beside the record: its first PACED_KEPT arrivals of the windows
# it counted (a point at a million a second holds millions, tens of MB: a run must commit).
PACED_KEPT = 200_000
# A point starts this long after the harness sends it, and LEAD_NS_AN_ARRIVAL longer for each
# arrival it schedules: the driver reads its schedule and sets up before it, off the clock
# (Python's kit builds its due times at about 30 ns an arrival); the record says how much of
# it was left (lead_left_ns).
LEAD_NS = 50_000_000
LEAD_NS_AN_ARRIVAL = 100


def why_not(spec: DriverSpec, callers: int) -> str | None:
    """Why a row cannot be served at a rate here, if it cannot."""
    if spec.id.startswith("independent-"):
        return "a plain caller: it speaks no paced rounds (it shares no kit)"
    if language_key(spec) not in PACED_LANGUAGES:
        return "its kit does not speak contract 6's paced rounds yet (Python and C++ do)"
    if callers == 1 and CALLERS_ONLY in spec.roles:
        return "a callers-only twin: at one caller it is its shared row"
    if callers > 1 and spec.callers is None:
        return f"{ONE_CALLER} ({spec.one_caller})"
    return spec.available()


def serve_row(
    spec: DriverSpec,
    callers: int,
    options: RunOptions,
    run_dir: Path,
    expected: Expected,
    bound_ns: float,
    bound_from: str,
    repeats: int | None = None,
) -> Record:
    """One row at ``callers`` callers served at a rate; its record written into ``run_dir``.
    ``repeats``: the searches after the curve (default rate_repeats.REPEATS; 1 is --quick's
    single search, whose rate has no interval)."""
    options = replace(options, callers=callers, processes=1)
    sweep = {"kind": KIND, "value": callers}
    record = base_record(spec, options, sweep, expected.tolerance)
    reason = why_not(spec, callers) or traces.not_traced_at(spec, options.models, options.batch)
    if reason is not None:
        record.status, record.error = "skipped", reason
        write_record(run_dir, record)
        return record
    max_calls = options.max_calls(expected.samples)
    with tempfile.TemporaryDirectory(prefix="callbench-serving-") as tmp:
        live = Live(spec, record, Path(tmp))
        try:
            traces.verify(record, spec, options.models, options.batch)
            place = Placement.of(options)
            start(live, options, max_calls, place, f"[{spec.id} x{callers}]")
            wait_ready(live, place, f"[{spec.id} x{callers}]")
            searches = rate_repeats.REPEATS if repeats is None else repeats
            serving, paced = _serve(live, place, max_calls, options.seed, bound_ns, searches)
            serving["bound_from"] = bound_from
            _finish(live, options, expected, max_calls, serving)
        except (DriverError, DataError, OSError) as exc:
            record.status, record.error = "failed", str(exc)
            paced = None
        finally:
            kill_all()
        if record.status == "ok" and paced is not None:
            _write_paced(run_dir, record, paced)
        write_record(run_dir, record, live.latencies if record.status == "ok" else None)
    return record


def _serve(
    live: Live, place: Placement, max_calls: int, seed: int, bound_ns: float, repeats: int
) -> tuple[dict[str, Any], ArrivalTimes]:
    """The closed loop, then the search: what ``serving`` will hold, and the last point's
    latencies."""
    process = live.process
    assert process is not None
    callers = live.record.callers

    def closed_round(k: int) -> dict[str, Any]:
        process.send(f"round {k}")
        live.sent_rounds += 1
        return process.event("round", ROUND_LIMIT)

    first = closed_round(min(100, max_calls))
    per_call = first["ns"] / first["calls"]  # one caller's time per call, N at once
    k = max(1, min(max_calls, int(ROUND_S * 1e9 / max(per_call, 1.0))))
    for index in range(CLOSED_ROUNDS):
        answer = closed_round(k)
        live.record.rounds.append(Round(index, k, int(answer["ns"]), answer.get("cpu_ns"),
                                        callers=callers,
                                        caller_ns=answer.get("caller_ns")))  # fmt: skip
    capacity = 1e9 / float(np.median([r.per_call_ns for r in live.record.rounds]))
    latency_calls = min(max_calls, LATENCY_CAP, max(k, -(-rate_search.MIN_CALLS // callers)))
    process.send(f"latencies {latency_calls}")
    process.event("latencies", ROUND_LIMIT)
    live.latencies = np.fromfile(live.workdir / "latencies.i64", dtype="<i8")
    console.say(f"  {live.spec.id} x{callers}: closed loop {capacity:,.0f} calls/s; searching "
                f"the rate within p99 {bound_ns / 1e6:g} ms")  # fmt: skip
    schedule = live.workdir / "arrivals.i64"
    # Only the last point's counted times are kept (a point may hold millions of arrivals).
    last: list[ArrivalTimes] = []
    served = [0]
    probe = Probe(place.cpus, seed)

    def point(rate: float, confirm: bool) -> rate_search.Point:
        size = rate_windows.WindowSize.at(rate)
        calls = size.arrivals * size.most
        served[0] += 1
        point_seed = seed + served[0]
        offsets = rate_search.arrivals(rate, calls, point_seed)
        offsets.tofile(schedule)
        before = probe()
        # The start, ahead by the lead: the driver reads the schedule and sets up before it.
        lead_ns = LEAD_NS + LEAD_NS_AN_ARRIVAL * calls
        start_ns = time.monotonic_ns() + lead_ns
        edges = [start_ns + int(offsets[i]) for i in range(0, calls, size.arrivals)]
        with WindowSteal(place.cpus, [*edges, start_ns + int(offsets[-1])]) as steal:
            process.send(f"paced {schedule} {start_ns}")
            answer = process.event("paced", ROUND_LIMIT + offsets[-1] / 1e9)
        after = probe()
        if answer.get("calls") != calls or answer.get("start_ns") != start_ns:
            raise DriverError(f"paced: answered {answer.get('calls')} calls from "
                              f"{answer.get('start_ns')}, for {calls} arrivals from "
                              f"{start_ns}")  # fmt: skip
        times = ArrivalTimes.read(live.workdir / "latencies.i64", calls)
        windows = rate_windows.windows_of(offsets, times.total, size.arrivals)
        used, steady = rate_windows.settled(windows)
        kept = times.first(used * size.arrivals)
        last[:] = [kept]
        figures = {**kept.figures(), "lead_ns": lead_ns,
                   "lead_left_ns": start_ns - int(answer["ready_ns"])}  # fmt: skip
        # Each window's steal beside its figures; the contention probe on either side of the
        # point (as around a closed-loop round: it cannot run inside one schedule).
        shown = tuple(w.to_json() | {"steal_ns": ns}
                      for w, ns in zip(windows, steal.per_window(), strict=True))  # fmt: skip
        found = replace(rate_search.point_of(
            rate, point_seed, kept.total, int(answer["ns"]), bound_ns, confirm=confirm,
            caller_calls=tuple(int(n) for n in answer.get("caller_calls") or ()), times=figures,
        ), calls=calls, windows=shown, windows_used=used, stable=steady, probe_ns=before,
           probe_after_ns=after)  # fmt: skip
        verdict = "within" if found.within else "over"
        console.note(f"  {live.spec.id} x{callers}: {rate:,.0f}/s, p99 "
                     f"{found.p99_ns / 1e3:,.1f} us: {verdict}"
                     f"{'' if steady else ' (unstable)'}")  # fmt: skip
        return found

    shape, searches, found = rate_repeats.repeated(point, capacity, repeats, seed=seed)
    console.clear()
    low, high = found.interval
    return {
        "bound_ns": bound_ns, "arrivals": "poisson", "seed": seed, "step": rate_search.STEP,
        "spin_ns": SPIN_NS, "closed_calls_per_s": capacity,
        "rate": found.median or None, "capped": found.capped,
        "rate_interval": [low, high], "repeats": repeats, "repeat_rates": list(found.rates),
        "interval_method": rate_repeats.METHOD,
        "windows_rule": rate_windows.rule(), "curve": list(rate_repeats.CURVE),
        "points": [p.to_json() for p in shape]
                  + [p.to_json() | {"repeat": i} for i, s in enumerate(searches)
                     for p in s.points],
    }, last[-1]  # fmt: skip


def _finish(
    live: Live, options: RunOptions, expected: Expected, max_calls: int, serving: dict[str, Any]
) -> None:
    """The result line and the last paced point's outputs checked (arrival j: call j mod S)."""
    process = live.process
    assert process is not None
    result = process.finish(120.0)
    assert isinstance(result, dict)  # one process: serving runs no copies
    live.process = None
    # Contract 6: the outputs hold the slots the last point filled, slot i sample i mod S.
    calls = min(serving["points"][-1]["calls"], max_calls)
    asked = {"driver": live.spec.id, "calls": max_calls, "batch": options.batch,
             "threads": options.threads} | ({"callers": options.callers}
                                            if options.callers > 1 else {})  # fmt: skip
    want = expected.of_callers(1, calls, options.batch)
    record = live.record
    problem = settle(record, result, asked, live.sent_rounds, live.workdir / "outputs.f32", want)
    record.serving = serving
    served = serving["points"][-1]["caller_calls"]
    record.callers_verified = None if problem else sum(1 for n in served if n) or 1
    record.status, record.error = ("failed", problem) if problem else ("ok", None)


def _write_paced(run_dir: Path, record: Record, times: ArrivalTimes) -> None:
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
