"""Every driver's warm-up, decided here and nowhere else: a cap in calls and a time budget.

The contract's rule (``docs/contract.md``, every kit's rounds): untimed calls until the cap,
or until at least a few calls and the budget's seconds have passed. A run, its sweeps and a
profile warm up by time, so a 0.1 s call of a real model is warm in about a second while
our MLP still makes its 10,000 calls; a count warms up by calls alone (no time limit), as
under Valgrind the clock says nothing of how warm a driver is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from callbench.driver_options import WARMUP
from callbench.registry import language_key

if TYPE_CHECKING:
    from callbench.languages.spec import DriverSpec


class Asked(Protocol):
    """What a command's options ask of the warm-up (RunOptions, which imports this module)."""

    @property
    def warmup(self) -> int | None: ...

    @property
    def warmup_time(self) -> float: ...


# A count's warm-up for a JIT-compiled driver unless --warmup says otherwise: enough for a
# JIT (the JVM's, V8's) to compile the call path and its heap to grow (after 10,000, Java's
# ONNX Runtime rows still got 1-4% cheaper from round to round); the counted rounds that
# follow settle it the rest of the way (count_settling). After 50,000, java-onnxruntime
# settled in 6-8 rounds to 53,205, 53,211 and 53,265 instructions a call (runs
# 20261129T0914Z-count-issue67-22 to -24), against 53,162-53,173 after 100,000 (runs
# 20261129T0552Z-count-issue67-19 to -21). An interpreter or compiled
# code warms up as its timed rounds do (the run's cap): python-eager-seed counted 415,801
# after 1,000 calls, 408,175 after 10,000 (by hand, not committed).
COUNT_JIT_WARMUP = 50_000
JIT_WARMUP = {"java": COUNT_JIT_WARMUP, "node": COUNT_JIT_WARMUP}


@dataclass(frozen=True)
class Warmup:
    """A driver's warm-up: at most ``calls`` calls, stopped after ``seconds`` (0: never)."""

    calls: int
    seconds: float


def of_run(options: Asked) -> Warmup:
    """A timed run's, a profile's: --warmup's cap and --warmup-time's budget."""
    return Warmup(WARMUP if options.warmup is None else options.warmup, options.warmup_time)


def of_sweep_point(options: Asked, batch: int) -> Warmup:
    """A sweep point's calls of ``batch`` samples: the run's cap counted in samples."""
    run = of_run(options)
    return Warmup(max(1, run.calls // batch), run.seconds)


def of_count(spec: DriverSpec, options: Asked) -> Warmup:
    """A count's: --warmup's, else its JIT's, else the run's cap; no time limit."""
    if options.warmup is not None:
        return Warmup(options.warmup, 0.0)
    return Warmup(JIT_WARMUP.get(language_key(spec), WARMUP), 0.0)
