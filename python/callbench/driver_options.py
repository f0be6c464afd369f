"""The contract's driver options, declared once for Python: the kit parses them, the harness and
the profiler write them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from callbench.command_line import Parser, count

DEFAULT_CALLS = 1_000_000
# Untimed calls after loading: enough for a JIT (the JVM's, V8's) to compile the call path
# first. The contract's default in every kit, and callbench run's.
WARMUP = 10_000
# Calls a latency sample takes at most (the harness asks for min(calls, this)).
STANDALONE_LATENCY_CALLS = 100_000


@dataclass(frozen=True)
class Options:
    models: Path = Path("models")
    calls: int = DEFAULT_CALLS
    warmup: int = WARMUP
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
            "--warmup", str(self.warmup),
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
    "models": Path, "calls": count(1), "warmup": count(0), "repeats": count(1),
    "batch": count(1), "threads": count(1), "outputs": Path, "latencies": Path,
}  # fmt: skip


def parse_options(argv: Sequence[str]) -> Options:
    parser = Parser(add_help=False)
    for option in fields(Options):
        flag = "--" + option.name
        if option.name in _TYPES:
            parser.add_argument(flag, type=_TYPES[option.name], default=option.default)
        else:  # --serve, --debug
            parser.add_argument(flag, action="store_true")
    return Options(**vars(parser.parse_args(argv)))
