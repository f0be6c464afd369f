"""What a callbench command asks of drivers, declared once: every option of ``run``, ``bench``,
``count`` and ``profile`` with its one default, its flag, its type and its help.

A command adds the options it takes to its parser (``add_options``) and reads them back as
one ``RunOptions`` (``RunOptions.of``); the drivers it starts get theirs from it
(``RunOptions.driver_options``), written in the contract's words.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from callbench.command_line import count, number, positive
from callbench.driver_options import DEFAULT_CALLS, WARMUP, WARMUP_TIME, Options
from callbench.harness import warmup as warmups
from callbench.harness.warmup import COUNT_JIT_WARMUP

# Outputs may differ from the eager reference by float32 rounding of a
# different summation order (a few ulps of values up to ~20), never by more.
ATOL = 1e-4
# A calibrated round never takes more calls than this (the seed's million, a driver's default).
MAX_CALLS = DEFAULT_CALLS
# Rounds of the fixed protocol (--calls N) unless --rounds says otherwise.
FIXED_ROUNDS = 3
# A counted driver that has not loaded within this under Valgrind is skipped. The slowest
# here, python-torch-compile and python-executorch, loaded in 190-210 s (torch's import
# alone takes ~30 s under callgrind, instrumentation off); counting them then costs about
# 30 s more than waiting out a 3-minute limit to skip them.
COUNT_LOAD_LIMIT = 300.0
COUNT_ROUND_LIMIT = 300.0

_FLAG = "callbench.flag"
# The options a run shares with its drivers take the contract's defaults.
_DRIVER = Options()


@dataclass(frozen=True)
class Flag:
    """How an option is written on the command line."""

    help: str
    type: Callable[[str], Any] | None = None  # None: a switch
    metavar: str | None = None
    name: str | None = None  # when not --<field name>: --no-pin turns ``pin`` off


def _option(default: Any, help: str, type: Callable[[str], Any] | None = None, *,
            metavar: str | None = None, name: str | None = None) -> Any:  # fmt: skip
    return field(default=default, metadata={_FLAG: Flag(help, type, metavar, name)})


@dataclass(frozen=True)
class RunOptions:
    # (_option returns a dataclasses.field: the call is the field's declaration)
    models: Path = _option(_DRIVER.models, "the exported artifacts", Path, metavar="DIR")  # noqa: RUF009
    # Calls per round: None calibrates each driver (to ``round_time``, or a count to
    # ~5e7 instructions a round); a number fixes it (1000000 is the seed's protocol).
    calls: int | None = _option(
        None,
        "calls per round for every driver (1000000: the seed's protocol); default: "
        "calibrated per driver (run: to --round-time; count: K of ~5e7 instructions, "
        "100-10000; profile: 20000)",
        count(1), metavar="N",
    )  # fmt: skip
    # Many short rounds rather than a few long ones: on a shared machine a few
    # rounds in five come out slow, and the median's 95% interval (order
    # statistics) then stays inside the clean ones only when there are ~20 of them.
    rounds: int = _option(
        21, f"interleaved rounds (run and bench: {FIXED_ROUNDS} with --calls)", count(1)
    )
    round_time: float = _option(0.05, "seconds a calibrated round aims at", positive)
    # The warm-up's cap in untimed calls after loading; None: WARMUP, enough for a JIT (the
    # JVM's, V8's) to compile the call path first, and a count's JIT row more. Its time
    # budget ends it sooner for a slow call. harness/warmup.py decides each driver's.
    warmup: int | None = _option(
        None,
        f"untimed calls after loading at most (default {WARMUP}; a count's of Java and "
        f"Node: {COUNT_JIT_WARMUP})",
        count(0), metavar="W",
    )  # fmt: skip
    warmup_time: float = _option(
        WARMUP_TIME,
        "seconds the warm-up takes at most once it has made a few calls (0: no time "
        "limit, --warmup calls; a count's has none)",
        number(at_least=0, at_most=1e6), metavar="S",
    )  # fmt: skip
    batch: int = _option(_DRIVER.batch, "samples per call", count(1))
    threads: int = _option(_DRIVER.threads, "threads each runtime may use", count(1))
    # Contract 4: callers calling each driver at once (run --callers gives each N its group).
    callers: int = _DRIVER.callers
    # Copies of each driver, each its own process of ``callers`` callers (run --processes).
    processes: int = 1
    # Contract 7: paced rounds served by each driver's batcher of up to ``batch`` arrivals a
    # call, waiting at most this many µs (serve-rate --batcher); None: no batcher.
    max_delay: int | None = None
    gathered: bool = False  # ... each call at the size it gathered (--gathered)
    pin: bool = _option(True, "do not pin drivers to a core", name="--no-pin")
    latencies: bool = True
    # A flagged round (the driver did not have the CPU) is re-run at most this often.
    reruns: int = _option(2, "re-runs of a flagged round", count(0))
    # Also flag a round whose contention probe ran slow (the core was shared):
    # calibrated rounds only, as a probe says little of a minute-long round.
    contention_flags: bool = _option(
        True,
        "count rounds whose contention probe ran slow (flagged and re-run by default)",
        name="--no-contention-flags",
    )
    # Drivers loading at once (load times are the drivers' own, with that many loading).
    load_jobs: int = 2
    seed: int = _option(0, "shuffles the round order", int)
    # callbench count: pairs of rounds of K and 2K calls, drivers counted at once (counts
    # do not interfere, times would), and the cache simulation.
    pairs: int = _option(3, "pairs of rounds counted (a JIT row's at least 5)", count(1))
    jobs: int = _option(2, "drivers counted at once", count(1))
    cache_sim: bool = _option(
        False, "simulate the caches too: estimated cycles = L1 hits + 5 LL hits + 35 RAM accesses"
    )
    load_limit: float = COUNT_LOAD_LIMIT
    round_limit: float = COUNT_ROUND_LIMIT
    debug: bool = _option(False, "show tracebacks")

    @classmethod
    def of(cls, args: argparse.Namespace, **defaults: Any) -> RunOptions:
        """The options a parser built with ``add_options`` read; ``defaults`` (a command's
        own, such as ``bench --quick``'s) stand where an option was not given."""
        given = {f.name: getattr(args, f.name) for f in fields(cls) if hasattr(args, f.name)}
        return cls(**{**defaults, **given})

    @property
    def all_callers(self) -> int:
        """The callers calling the model at once, in every process together."""
        return self.callers * self.processes

    def max_calls(self, samples: int) -> int:
        """The --calls a driver is started with: what a round may take at most."""
        fits = max(1, samples // self.batch)
        return min(self.calls, fits) if self.calls is not None else min(MAX_CALLS, fits)

    def protocol(self) -> dict[str, Any]:
        """How this run timed, as env.json and the report state it."""
        if self.calls is not None:
            return {"name": "fixed", "calls": self.calls, "rounds": self.rounds}
        return {"name": "calibrated", "round_time_s": self.round_time, "rounds": self.rounds}

    def driver_options(
        self, calls: int, warmup: warmups.Warmup | None = None, **more: Any
    ) -> Options:
        """A driver's options (the contract's) for rounds of at most ``calls`` calls: these
        models, batch, threads and debug unless ``more`` says otherwise, and ``warmup``
        (default: a run's, ``warmups.of_run``)."""
        warm = warmup or warmups.of_run(self)
        mine = {"models": self.models, "warmup": warm.calls, "warmup_time": warm.seconds,
                "batch": self.batch, "threads": self.threads, "callers": self.callers,
                "max_delay": self.max_delay, "gathered": self.gathered,
                "debug": self.debug}  # fmt: skip
        return Options(calls=calls, **{**mine, **more})


OPTIONS: Mapping[str, Any] = {f.name: f for f in fields(RunOptions) if _FLAG in f.metadata}


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *names: str) -> None:
    """Add these options, each as RunOptions declares it; one not given stays unset in the
    parsed arguments, so that ``RunOptions.of`` takes its one default."""
    for name in names:
        declared = OPTIONS[name]
        flag: Flag = declared.metadata[_FLAG]
        if flag.type is None:  # a switch: on, or (--no-...) off
            parser.add_argument(
                flag.name or _flag(name), dest=name, default=argparse.SUPPRESS,
                action="store_false" if declared.default else "store_true", help=flag.help,
            )  # fmt: skip
            continue
        shown = "" if declared.default is None else f" (default {declared.default})"
        parser.add_argument(
            flag.name or _flag(name), dest=name, type=flag.type, metavar=flag.metavar,
            default=argparse.SUPPRESS, help=f"{flag.help}{shown}".replace("%", "%%"),
        )  # fmt: skip


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")
