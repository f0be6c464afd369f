"""``callbench``: export, build, run, bench, count, kernels, profile, report, compare, list.

Every subcommand is a few lines over the library; nox sessions call these.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from callbench.cli import common
from callbench.command_line import Parser, report_errors
from callbench.errors import UsageError

PROG = "callbench"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("export", help="train the MLP and write models/")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options of the exporter")

    p = sub.add_parser("build", help="build the drivers of each language (CMake, Maven, Cargo...)")
    p.add_argument("languages", nargs="*", help="default: every language")
    p.add_argument("--test", action="store_true", help="also run each language's unit tests")
    p.add_argument("--lint", action="store_true", help="also run each language's linters")

    p = sub.add_parser("run", help="run drivers through the harness into a run folder")
    common.add_selection(p)
    common.add_protocol(p)
    common.add_where(p)
    p.add_argument("--build", action="store_true", help="build the languages first")
    p.add_argument("--sweep", choices=("batch", "threads"), help="run each value of a sweep")
    p.add_argument("--sweep-values", type=lambda t: [int(v) for v in t.split(",")])
    common.add_user_model(p)
    common.add_widths(
        p, "run each driver at each hidden width of the family (8: the reference; 'all': "
        "every exported width)",
    )  # fmt: skip

    p = sub.add_parser("bench", help="export if needed, build, drivers, sweeps, kernels, report")
    common.add_selection(p)
    common.add_protocol(p)
    common.add_where(p)
    p.add_argument("--quick", action="store_true", help="the whole pipeline at a small size")
    p.add_argument("--no-build", action="store_true")
    common.add_user_model(p)
    common.add_widths(
        p, "also the model-size sweep at these widths ('all': every exported one); with "
        "--only, every chosen driver runs at each, else each runtime's fastest (--swept)",
    )  # fmt: skip

    p = sub.add_parser("report", help="write results/report.md from runs")
    p.add_argument("runs", nargs="*", help="run folders or ids (default: the newest)")
    p.add_argument("--out", help="folder for report.md and charts (default: results/)")

    p = sub.add_parser("compare", help="per driver, run B against run A; a CI gate")
    from callbench.cli.compare import add_arguments as compare_arguments

    compare_arguments(p)

    p = sub.add_parser("count", help="instructions per call under callgrind, into a run")
    from callbench.cli.count import add_arguments

    add_arguments(p)

    sub.add_parser("list", help="every registered driver and whether it can run here")
    sub.add_parser(
        "kernels", add_help=False,
        help="the seeds' micro-benchmarks (elementwise math, batched dot, CUDA) into a run",
    )  # fmt: skip
    sub.add_parser(
        "profile", add_help=False,
        help="where a Python driver's call goes (profile driver ID), or the ladder",
    )  # fmt: skip
    return parser


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "export":
        from callbench.model.export import main as export_main

        return export_main(args.rest)
    if args.command == "build":
        from callbench.cli.builds import BUILT, build

        flags = [f for f, on in (("--test", args.test), ("--lint", args.lint)) if on]
        return 1 if build(args.languages or BUILT, *flags) else 0
    if args.command in ("run", "bench"):
        from callbench.cli.bench import bench, run

        return run(args) if args.command == "run" else bench(args)
    if args.command == "report":
        from callbench.report.__main__ import main as report_main

        return report_main([*args.runs, *(["--out", args.out] if args.out else [])])
    if args.command == "compare":
        from callbench.cli.compare import main as compare_main

        return compare_main(args)
    if args.command == "count":
        from callbench.cli.count import main as count_main

        return count_main(args)
    if args.command == "list":
        from callbench.cli.listing import listing

        print(listing())
        return 0
    raise UsageError(f"unknown command {args.command}")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["profile"]:  # parses its own options, `--` ones included
        from callbench.cli.profile import profile_main

        return profile_main(args[1:])
    if args[:1] == ["kernels"]:  # its own process: thread counts are set before NumPy loads
        from callbench.kernels.launch import run_kernels_with

        return run_kernels_with(args[1:])
    return report_errors(
        PROG, lambda: dispatch(build_parser().parse_args(args)), "--debug" in args, catch_all=False
    )
