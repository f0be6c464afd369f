"""A row served at a rate: one driver at N callers, its closed loop, then the rate search.

The driver is loaded once. Its closed loop at N comes first (rounds of K calls a caller, then
one latency pass: its throughput is the capacity the curve's shares are of, its p50 and p99
what the report sets beside the paced ones); then each rate point is one ``paced FILE START``
(contract 6) over a Poisson schedule (rate_points.py), starting a lead after it is sent
(the driver reads the schedule and sets up before it), cut into windows (rate_windows.py)
that say whether the point was stable; the curve and the repeated searches (rate_repeats.py)
choose the rates, in steps (RowAtRate) that other rows' may come between (rows_in_turn.py),
the driver loaded throughout, each row with seeds of its own (row_seed). The slots the last
point's arrivals filled are checked against the reference before any of it counts. The
record is the closed loop's (its rounds, its latencies) with ``serving`` holding every point,
the bound, the windows' rule and the rate found with its interval.

A point serves its most windows in one schedule, and the windows it needed (the first whose
last AGREE agree) give its figures: the kits cannot yet stop a schedule part-way, so the
windows past those are served but not counted.
"""

from __future__ import annotations

import tempfile
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from callbench.contract import SPIN_NS
from callbench.driver_options import ONE_CALLER
from callbench.errors import DataError
from callbench.harness import batch_reach, console, traces
from callbench.harness.expected import Expected
from callbench.harness.launch import Live, Placement, base_record, start, wait_ready
from callbench.harness.load import (
    batcher_drain,
    closed_loop,
    dealing,
    dynamic_batcher,
    rate_repeats,
    rate_search,
    rate_windows,
    served_record,
)
from callbench.harness.load.arrival_times import ArrivalTimes
from callbench.harness.load.rate_points import RatePoints
from callbench.harness.options import RunOptions
from callbench.harness.processes import DriverError, kill_all
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record
from callbench.records.store import write_record
from callbench.registry import language_key
from callbench.roles import CALLERS_ONLY

# The kits that speak contract 6's paced rounds (a kit joins by its line here), by name.
PACED_LANGUAGES = {
    "python": "Python",
    "cpp": "C++",
    "go": "Go",
    "rust": "Rust",
    "java": "Java",
    "node": "Node.js",
}
KIND = rate_search.KIND


def why_not(spec: DriverSpec, callers: int, deal: str | None = None) -> str | None:
    """Why a row cannot be served at a rate here (at ``callers`` callers a copy, its copies
    dealt by ``deal`` where it has copies), if it cannot."""
    if spec.id.startswith("independent-"):
        return "a plain caller: it speaks no paced rounds (it shares no kit)"
    if language_key(spec) not in PACED_LANGUAGES:
        speak = ", ".join(PACED_LANGUAGES.values())
        return f"its kit does not speak contract 6's paced rounds yet ({speak} do)"
    if callers == 1 and CALLERS_ONLY in spec.roles:
        each = " (each copy's)" if deal is not None else ""
        return f"a callers-only twin: at one caller{each} it is its shared row"
    if callers > 1 and spec.callers is None:
        return f"{ONE_CALLER} ({spec.one_caller})"
    if deal is not None and (why := dealing.why_not(language_key(spec), deal)) is not None:
        return why
    return spec.available()


def row_seed(seed: int, row: str) -> int:
    """A row and N's own seed from the run's: its arrivals and draws differ from every other
    row's (one seed for all would give every row the same gaps, scaled), and the same run
    seed gives each row the same again."""
    sequence = np.random.SeedSequence([seed, zlib.crc32(row.encode())])
    return int(sequence.generate_state(1)[0])


class RowAtRate:
    """One row at N callers served at a rate in steps: ``begin`` (loaded, its closed loop,
    the curve), ``search`` (one repeated search a step) and ``end`` (the last point's outputs
    checked, the record written), so that several rows' searches can take turns
    (rows_in_turn.py). Its driver stays loaded between its steps, waiting on its input. A
    row skipped or failed is ended at once (its record written, its driver killed); its
    later steps do nothing."""

    def __init__(
        self, spec: DriverSpec, callers: int, options: RunOptions, run_dir: Path,
        expected: Expected, bound_ns: float, bound_from: str, repeats: int | None = None,
        processes: int = 1, deal: str | None = None, skip: str | None = None,
        batcher: dynamic_batcher.Batcher | None = None, coarse: bool = False,
    ) -> None:  # fmt: skip
        self.spec, self.callers, self.processes = spec, callers, processes
        # bench's serving phase: COARSE_REPEATS searches and the windows' coarse rule (short
        # windows, short points), the record saying so ("coarse"), its interval the wider.
        self.coarse = coarse
        self.batcher = batcher  # contract 7: served through the kit's batcher, one caller
        self._drains: list[float] = []  # its bursts' arrivals a second (batcher_drain.py)
        self._skip = skip  # why the run skips it (a plan's budget), if it does
        # At N processes, how the copies share the arrivals: ``deal`` (dealing.DEALS) or the
        # row's ecosystem's way.
        self.deal = dealing.deal_for(language_key(spec), deal) if processes > 1 else None
        self.label = (f"{spec.id} x{callers}" if processes == 1
                      else f"{spec.id} x{processes} processes")  # fmt: skip
        if options.threads > 1:  # one caller of T intra-op threads (a way of using the cores)
            self.label += f" at {options.threads} intra-op threads"
        if batcher is not None:
            self.label = f"{spec.id} {batcher.label}"
            options = replace(options, batch=batcher.batch, max_delay=batcher.max_delay_us,
                              gathered=batcher.gathered)  # fmt: skip
        # The searches after the curve (1 is --quick's single search, whose rate has no
        # interval), and how many rows and N took turns with it (rows_in_turn.py sets it).
        full = rate_repeats.COARSE_REPEATS if coarse else rate_repeats.REPEATS
        self.repeats = full if repeats is None else repeats
        self.in_turn = 1
        self._options = replace(options, callers=callers, processes=processes)
        self.threads = options.threads  # each caller's intra-op threads
        self._run_dir, self._expected = run_dir, expected
        self._bound_ns, self._bound_from = bound_ns, bound_from
        sweep = {"kind": KIND, "value": self._options.all_callers,
                 **({"batcher": batcher.to_json()} if batcher else {})}  # fmt: skip
        self.record = base_record(spec, self._options, sweep, expected.tolerance)
        self.seed = row_seed(options.seed, self.label)
        self._max_calls = self._options.max_calls(expected.samples)
        self._draws = rate_repeats.draws(self.seed, self.repeats)
        self._workdir: tempfile.TemporaryDirectory[str] | None = None
        self._live: Live | None = None
        self._points: RatePoints | None = None
        self._shape: list[rate_search.Point] = []
        self._searches: list[rate_search.Search] = []
        # bench's coarse pass: the batchers served as curves to choose this one (its record's
        # chosen_from); empty elsewhere.
        self.chosen_from: list[dict[str, Any]] = []
        self.ended = False

    def begin(self) -> None:
        """Load the driver, time its closed loop and serve the curve (or skip it, saying why)."""
        options = self._options
        reason = (self._skip or why_not(self.spec, self.callers, self.deal)
                  or batch_reach.why_not_at(self.spec, options.models, options.batch))  # fmt: skip
        if reason is not None:
            self.record.status, self.record.error = "skipped", reason
            write_record(self._run_dir, self.record)
            self.ended = True
            return
        self._workdir = tempfile.TemporaryDirectory(prefix="callbench-serving-")
        self._live = Live(self.spec, self.record, Path(self._workdir.name))
        self._step(self._load)

    def search(self, index: int) -> None:
        """The ``index``-th repeated search (none past its repeats)."""
        if not self.ended and index < self.repeats:
            self._step(lambda: self._search(index))

    def curve_rate(self) -> float | None:
        """Once begun: the highest rate its curve passed below the lowest that failed (None:
        none passed, or the row ended). bench's coarse pass chooses a batcher by it."""
        if self.ended or not self._shape:
            return None
        return rate_repeats.bracket_of(self._shape)[0] or None

    def drop(self) -> None:
        """End a row served for its curve only (bench's coarse pass): its driver killed and
        its folder removed, no record written (its curve chose; it is not a figure)."""
        live = self._live
        if live is not None and live.process is not None:
            live.process.kill()
            live.process = None
        if self._workdir is not None:
            self._workdir.cleanup()
        self.ended = True

    def end(self) -> Record:
        """The last point's outputs checked and the record written (once)."""
        if not self.ended:
            self._step(self._finish)
        return self.record

    def _step(self, work: Callable[[], None]) -> None:
        try:
            work()
        except (DriverError, DataError, OSError) as exc:
            self.record.status, self.record.error = "failed", str(exc)
            self._close()

    def _load(self) -> None:
        live, options = self._live, self._options
        assert live is not None
        traces.verify(self.record, self.spec, options.models, options.batch)
        place = Placement.of(options)
        start(live, options, self._max_calls, place, f"[{self.label}]")
        wait_ready(live, place, f"[{self.label}]")
        capacity, what = closed_loop.timed(live, self._max_calls), "closed loop {:,.0f} calls/s"
        if self.batcher is not None:  # its closed loop: bursts drained B a call
            self._drains = batcher_drain.drain(live, capacity, options.batch)
            capacity, what = float(np.median(self._drains)), "a burst drained {:,.0f}/s"
        console.say(f"  {self.label}: {what.format(capacity)}; searching the "
                    f"rate within p99 {self._bound_ns / 1e6:g} ms")  # fmt: skip
        self._points = RatePoints(live, place, self.seed, self._bound_ns, capacity, self.deal,
                                  self.coarse)  # fmt: skip
        self._shape = rate_repeats.curve(self._points.serve, capacity)

    def _search(self, index: int) -> None:
        points = self._points
        assert points is not None
        self._searches.append(
            rate_repeats.one_search(points.serve, self._shape, points.capacity, self._draws[index])
        )
        console.clear()

    def _finish(self) -> None:
        points = self._points
        assert points is not None and self._live is not None
        found = rate_repeats.rate_found(self._searches)
        low, high = found.interval
        serving = {
            "bound_ns": self._bound_ns, "bound_from": self._bound_from, "arrivals": "poisson",
            "seed": self.seed, "step": rate_search.STEP, "spin_ns": SPIN_NS,
            "closed_calls_per_s": points.capacity, "rate": found.median or None,
            "capped": found.capped, "rate_interval": [low, high], "repeats": self.repeats,
            "repeat_rates": list(found.rates), "interval_method": rate_repeats.method(self.repeats),
            "in_turn": self.in_turn, "served_again": points.served_again,
            **({"deal": self.deal, "deal_how": dealing.how(self.deal, language_key(self.spec))}
               if self.deal is not None else {}),
            **({"batcher": {**self.batcher.to_json(), "drained_per_s": self._drains}}
               if self.batcher is not None else {}),
            "windows_rule": rate_windows.rule(self.coarse),
            **({"coarse": True} if self.coarse else {}),
            **({"chosen_from": self.chosen_from} if self.chosen_from else {}),
            "curve": list(rate_repeats.CURVE),
            "points": [p.to_json() for p in self._shape]
                      + [p.to_json() | {"repeat": i} for i, s in enumerate(self._searches)
                         for p in s.points],
        }  # fmt: skip
        served_record.finish(self._live, self._options, self._expected, self._max_calls,
                             serving, points)  # fmt: skip
        self._close(points.last)

    def _close(self, paced: ArrivalTimes | None = None) -> None:
        """End the row: its driver killed if still running, its record (and, served, the
        last point's times) written, its working folder removed."""
        live = self._live
        if live is not None and live.process is not None:
            live.process.kill()
            live.process = None
        if self.record.status == "ok" and paced is not None:
            served_record.write_paced(self._run_dir, self.record, paced)
        ok = self.record.status == "ok" and live is not None
        write_record(self._run_dir, self.record, live.latencies if ok and live else None)
        if self._workdir is not None:
            self._workdir.cleanup()
        self.ended = True


def serve_row(
    spec: DriverSpec,
    callers: int,
    options: RunOptions,
    run_dir: Path,
    expected: Expected,
    bound_ns: float,
    bound_from: str,
    repeats: int | None = None,
    processes: int = 1,
    deal: str | None = None,
    batcher: dynamic_batcher.Batcher | None = None,
) -> Record:
    """One row at ``callers`` callers (in each of ``processes`` copies, dealt by ``deal``)
    served at a rate alone, its searches back to back; its record written into ``run_dir``."""
    row = RowAtRate(spec, callers, options, run_dir, expected, bound_ns, bound_from, repeats,
                    processes, deal, batcher=batcher)  # fmt: skip
    try:
        row.begin()
        for index in range(row.repeats):
            row.search(index)
        return row.end()
    finally:
        kill_all()
