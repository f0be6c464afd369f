"""callbench measures what one call of a trained model costs from Python, C++, Java, Rust,
Go and Node.js, through every runtime and binding, each output checked.

The commands: export, build, run, bench, serve-rate, count, kernels, profile, report, compare, list.
Every subcommand is a few lines over the library; nox sessions call these.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from callbench.cli import builds, common, compare, count, profile
from callbench.cli import report as report_command
from callbench.cli.serve_rate import add_arguments as serve_rate_arguments
from callbench.command_line import Parser, report_errors
from callbench.kernels import launch as kernels
from callbench.model import export_options

PROG = "callbench"


@dataclass(frozen=True)
class Command:
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    # "module:function", imported only when the command runs: the parser is built on every
    # call, and a command's work may import torch or the harness.
    main: str
    # A runtime's own failure is one line too (exit 1), not a traceback.
    catch_all: bool = False

    def run(self, args: argparse.Namespace) -> int:
        module, function = self.main.split(":")
        return int(getattr(importlib.import_module(module), function)(args))


COMMANDS = {
    "export": Command(
        "train the MLP and write models/",
        export_options.add_arguments,
        "callbench.model.export_options:main",
    ),
    "build": Command(
        "build the drivers of each language (CMake, Maven, Cargo...)",
        builds.add_arguments,
        "callbench.cli.builds:main",
    ),
    "run": Command(
        "run drivers through the harness into a run folder",
        common.add_run_arguments,
        "callbench.cli.bench:run",
    ),
    "bench": Command(
        "export if needed, build, drivers, sweeps, kernels, report",
        common.add_bench_arguments,
        "callbench.cli.bench:bench",
    ),
    "report": Command(
        "write a report of runs into results/latest/ (--publish: results/report.md)",
        report_command.add_arguments,
        "callbench.cli.report:main",
    ),
    "compare": Command(
        "per driver, run B against run A; a CI gate",
        compare.add_arguments,
        "callbench.cli.compare:main",
    ),
    "serve-rate": Command(
        "the highest rate each row serves within a p99 bound (requests on their own clock)",
        serve_rate_arguments,
        "callbench.cli.serve_rate:main",
    ),
    "count": Command(
        "instructions per call under callgrind, into a run",
        count.add_arguments,
        "callbench.cli.count:main",
    ),
    "list": Command(
        "every registered driver and whether it can run here",
        common.add_no_arguments,
        "callbench.cli.listing:main",
    ),
    "kernels": Command(
        "the seeds' micro-benchmarks (elementwise math, batched dot, CUDA) into a run",
        kernels.add_arguments,
        "callbench.kernels.launch:main",
    ),
    "profile": Command(
        "where a Python driver's call goes (profile driver ID), or the ladder",
        profile.add_arguments,
        "callbench.cli.profile:main",
        catch_all=True,
    ),
}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description=" ".join(__doc__.split("\n\n")[0].split()))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name, command in COMMANDS.items():
        command.add_arguments(sub.add_parser(name, help=command.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    named = COMMANDS.get(args[0]) if args else None

    def body() -> int:
        parsed = build_parser().parse_args(args)
        return COMMANDS[parsed.command].run(parsed)

    catch_all = named is not None and named.catch_all
    return report_errors(PROG, body, "--debug" in args, catch_all=catch_all)
