"""What a run asks of every driver: the protocol (calibrated rounds, or the seed's fixed calls)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Outputs may differ from the eager reference by float32 rounding of a
# different summation order (a few ulps of values up to ~20), never by more.
ATOL = 1e-4
# A calibrated round never takes more calls than this (the seed's million).
MAX_CALLS = 1_000_000
# Rounds of the fixed protocol (--calls N) unless --rounds says otherwise.
FIXED_ROUNDS = 3


@dataclass(frozen=True)
class RunOptions:
    models: Path = Path("models")
    # Calls per round: None calibrates each driver to ``round_time``; a number
    # fixes it for every driver (``--calls 1000000`` is the seed's protocol).
    calls: int | None = None
    # Many short rounds rather than a few long ones: on a shared machine a few
    # rounds in five come out slow, and the median's 95% interval (order
    # statistics) then stays inside the clean ones only when there are ~20 of them.
    rounds: int = 21
    round_time: float = 0.05
    # Enough calls for a JIT (the JVM's, V8's) to compile the call path first.
    warmup: int = 10_000
    batch: int = 1
    threads: int = 1
    pin: bool = True
    latencies: bool = True
    # A flagged round (the driver did not have the CPU) is re-run at most this often.
    reruns: int = 2
    # Also flag a round whose contention probe ran slow (the core was shared):
    # calibrated rounds only, as a probe says little of a minute-long round.
    contention_flags: bool = True
    # Drivers loading at once (load times are the drivers' own, with that many loading).
    load_jobs: int = 2
    seed: int = 0
    debug: bool = False

    def max_calls(self, samples: int) -> int:
        """The --calls a driver is started with: what a round may take at most."""
        fits = max(1, samples // self.batch)
        return min(self.calls, fits) if self.calls is not None else min(MAX_CALLS, fits)

    def protocol(self) -> dict[str, Any]:
        """How this run timed, as env.json and the report state it."""
        if self.calls is not None:
            return {"name": "fixed", "calls": self.calls, "rounds": self.rounds}
        return {"name": "calibrated", "round_time_s": self.round_time, "rounds": self.rounds}
