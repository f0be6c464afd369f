"""A Python driver loaded in this process, warmed up, ready to be profiled.

Also a program, for py-spy to start and sample:
``python -m callbench.driverkit.host DRIVER MODULE:FUNCTION --seconds S [contract options]``
loads the driver, warms it up, then runs whole rounds in ``spin`` for about
S seconds (the profiler keeps only the samples under ``spin``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from callbench.command_line import Parser, report_errors
from callbench.driver_options import Options, parse_options
from callbench.driverkit import rounds
from callbench.driverkit.entry import load_setup
from callbench.driverkit.model import Model, Setup, load

SPIN = "spin"  # the function whose samples count (profile/native_frames.py)


@dataclass
class Loaded:
    """A driver's model with the buffers it reads and writes."""

    driver: str
    options: Options
    model: Model
    inputs: tuple[np.ndarray, ...]
    outputs: tuple[np.ndarray, ...]


@contextmanager
def loaded(driver_id: str, setup: Setup, options: Options) -> Iterator[Loaded]:
    """Load the driver as a run does, enter its context (e.g. inference mode), warm it up."""
    loaded_model = load(setup, options)
    model = loaded_model.model
    with model.context():
        rounds.warm_up(model.loop, options.calls, options.warmup, options.warmup_time)
        yield Loaded(driver_id, options, model, loaded_model.inputs, loaded_model.outputs)


def spin(driver: Loaded, seconds: float) -> int:
    """Whole rounds of the driver's loop for about ``seconds``; the number of calls made."""
    calls = driver.options.calls
    loop = driver.model.loop
    made = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        loop(0, calls)
        made += calls
    return made


def main(argv: Sequence[str]) -> int:
    parser = Parser(add_help=False)
    parser.add_argument("driver")
    parser.add_argument("entry")
    parser.add_argument("--seconds", type=float, default=2.0)

    def body() -> int:
        args, rest = parser.parse_known_args(argv)
        with loaded(args.driver, load_setup(args.entry), parse_options(rest)) as driver:
            spin(driver, args.seconds)
        return 0

    return report_errors("callbench profile", body, "--debug" in argv, catch_all=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
