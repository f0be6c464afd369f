"""The contract's driver options, declared once for Python: the kit parses them, the harness and
the profiler write them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

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


def parse_options(argv: Sequence[str]) -> Options:
    parser = Parser(add_help=False)
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--calls", type=count(1), default=DEFAULT_CALLS)
    parser.add_argument("--warmup", type=count(0), default=WARMUP)
    parser.add_argument("--repeats", type=count(1), default=3)
    parser.add_argument("--batch", type=count(1), default=1)
    parser.add_argument("--threads", type=count(1), default=1)
    parser.add_argument("--outputs", type=Path)
    parser.add_argument("--latencies", type=Path)
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--debug", action="store_true")
    return Options(**vars(parser.parse_args(argv)))
