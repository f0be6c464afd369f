"""The contract's driver options, declared once for Python: the kit parses them, the harness and
the profiler write them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from callbench.command_line import Parser, count, number

DEFAULT_CALLS = 1_000_000
# The warm-up's cap in untimed calls after loading: enough for a JIT (the JVM's, V8's) to
# compile the call path first. The contract's default in every kit, and callbench run's.
WARMUP = 10_000
# ... and its time budget: a call of a real model (ResNet-50: ~0.1 s here) stops warming up
# after about this many seconds, once it has made MIN_WARMUP_CALLS; 0: no time limit. Our
# slowest MLP row (python-eager-seed) makes its 10,000 calls in 0.54 s: it keeps them all.
WARMUP_TIME = 2.0
MIN_WARMUP_CALLS = 5
# Calls a latency sample takes at most (the harness asks for min(calls, this)).
STANDALONE_LATENCY_CALLS = 100_000


@dataclass(frozen=True)
class Options:
    models: Path = Path("models")
    calls: int = DEFAULT_CALLS
    warmup: int = WARMUP
    warmup_time: float = WARMUP_TIME
    repeats: int = 3
    batch: int = 1
    threads: int = 1
    outputs: Path | None = None
    latencies: Path | None = None
    serve: bool = False
    debug: bool = False

    def arguments(self) -> list[str]:
        """These options as a driver's command line (what the harness passes)."""
        args = [
            "--models", str(self.models), "--calls", str(self.calls),
            "--warmup", str(self.warmup), "--warmup-time", repr(float(self.warmup_time)),
            "--batch", str(self.batch), "--threads", str(self.threads),
        ]  # fmt: skip
        if not self.serve:  # in serve mode the harness asks for each round itself
            args += ["--repeats", str(self.repeats)]
        for flag, path in (("--outputs", self.outputs), ("--latencies", self.latencies)):
            if path is not None:
                args += [flag, str(path)]
        if self.serve:
            args.append("--serve")
        if self.debug:
            args.append("--debug")
        return args


# Each option's type on the command line; its default is the field's above.
_TYPES: dict[str, Callable[[str], Any]] = {
    "models": Path, "calls": count(1), "warmup": count(0),
    "warmup_time": number(at_least=0, at_most=1e6), "repeats": count(1),
    "batch": count(1), "threads": count(1), "outputs": Path, "latencies": Path,
}  # fmt: skip


def parse_options(argv: Sequence[str]) -> Options:
    parser = Parser(add_help=False)
    for option in fields(Options):
        flag = "--" + option.name.replace("_", "-")
        if option.name in _TYPES:
            parser.add_argument(flag, type=_TYPES[option.name], default=option.default)
        else:  # --serve, --debug
            parser.add_argument(flag, action="store_true")
    return Options(**vars(parser.parse_args(argv)))
