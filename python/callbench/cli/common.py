"""Options several subcommands share: the run protocol and the driver selection."""

from __future__ import annotations

import argparse
from pathlib import Path

from callbench.command_line import counts, duration_ns
from callbench.errors import UsageError
from callbench.harness.load import gpu_sweep, ways_plan
from callbench.harness.options import FIXED_ROUNDS, RunOptions, add_options
from callbench.languages.spec import DriverSpec
from callbench.model import family
from callbench.model.family import Width
from callbench.paths import RUNS
from callbench.registry import LANGUAGES, SWEEP_DRIVERS, select


def add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--language", action="append", choices=LANGUAGES, help="repeatable")
    p.add_argument("--only", action="append", help="driver id or id prefix; repeatable")
    p.add_argument(
        "--swept", action="store_true",
        help="only the drivers the sweeps take (each runtime's fastest: swept(...) lines)",
    )  # fmt: skip


def selection(args: argparse.Namespace) -> list[DriverSpec]:
    """The drivers --only, --language and --swept chose (a usage error when none)."""
    chosen = select(args.only, args.language)
    if args.swept:  # each runtime's fastest, and the GPU rows where one can run
        chosen = [s for s in chosen if s.id in SWEEP_DRIVERS or gpu_sweep.runs_here(s)]
    if not chosen:
        raise UsageError(f"no driver matches --only {' '.join(args.only or [])}")
    return chosen


def add_widths(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--widths", metavar="H,H...", help=what)


def widths(args: argparse.Namespace, models: Path) -> list[Width]:
    """The family widths --widths asks for ('all': every exported one), each folder checked."""
    text = (args.widths or "").strip()
    if not text:
        return []
    asked = family.exported(models) if text == "all" else family.parse_widths(text)
    return family.resolve(models, asked)


def add_user_model(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("your own model")
    brought = g.add_mutually_exclusive_group()
    brought.add_argument(
        "--onnx", type=Path, metavar="PATH",
        help="run every ONNX driver on this model instead of ours (named inputs and outputs "
        "of numeric dtypes, batch first); see the README",
    )  # fmt: skip
    brought.add_argument(
        "--torch", type=Path, metavar="PATH.pt2",
        help="a program torch.export.save wrote (from a source you trust): run it down the "
        "PyTorch paths and, through its ONNX export, every ONNX driver; see the README",
    )  # fmt: skip
    g.add_argument(
        "--inputs", type=Path, metavar="FILE.npz",
        help="with --onnx or --torch: the samples to feed, one array [N, ...] per input name "
        "(a .npy for a model of one input); default: seeded, per dtype",
    )  # fmt: skip
    g.add_argument(
        "--unwitnessed", action="store_true",
        help="with --onnx: where no second implementation agrees with ONNX Runtime's outputs, "
        "take them as the reference anyway; the manifest, every record and the report say "
        "the reference is not confirmed",
    )  # fmt: skip


def add_protocol(p: argparse.ArgumentParser) -> None:
    """The options of a timed run (``run``, ``bench``), as RunOptions declares them."""
    g = p.add_argument_group("protocol")
    add_options(g, "models", "calls", "rounds", "round_time", "warmup", "warmup_time", "batch",
                "threads", "pin", "reruns", "contention_flags", "seed", "debug")  # fmt: skip


def protocol_options(args: argparse.Namespace, **defaults: object) -> RunOptions:
    """A timed run's options (``run``, ``bench``): --calls without --rounds is the seed's
    fixed protocol, a million calls a round in its few rounds."""
    if hasattr(args, "calls") and not hasattr(args, "rounds"):  # given (add_options)
        defaults = {**defaults, "rounds": FIXED_ROUNDS}
    return RunOptions.of(args, **defaults)


def add_where(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs-dir", type=Path, default=RUNS)
    p.add_argument("--run-id", help="add to this run (made if missing) instead of a new one")


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """``callbench run``'s options."""
    add_selection(p)
    add_protocol(p)
    add_where(p)
    p.add_argument("--build", action="store_true", help="build the languages first")
    p.add_argument("--sweep", choices=("batch", "threads"), help="run each value of a sweep")
    p.add_argument("--sweep-values", type=lambda t: [int(v) for v in t.split(",")])
    p.add_argument(
        "--callers", type=counts(1), metavar="N,N...", dest="caller_counts",
        help="run each driver at each number of callers calling it at once (contract 4), "
        "each N its own group; a driver that runs one caller is skipped at N > 1, saying why",
    )  # fmt: skip
    p.add_argument(
        "--processes", type=counts(1), metavar="N,N...", dest="process_counts",
        help="run N copies of each driver at once, each its own process of one caller, "
        "timed as one (contract 4's processes), each N its own group",
    )  # fmt: skip
    add_user_model(p)
    add_widths(
        p, "run each driver at each hidden width of the family (8: the reference; 'all': "
        "every exported width)",
    )  # fmt: skip


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    """``callbench bench``'s options."""
    add_selection(p)
    add_protocol(p)
    add_where(p)
    p.add_argument("--quick", action="store_true", help="the whole pipeline at a small size")
    p.add_argument("--no-build", action="store_true")
    add_p99(p, "the serving phase's p99 bound")
    p.add_argument(
        "--serving-budget", type=float, metavar="MIN", default=ways_plan.BUDGET_MIN,
        help="the minutes the serving phase may take (default "
        f"{ways_plan.BUDGET_MIN:g}): the ways past it are skipped, each said once",
    )  # fmt: skip
    p.add_argument(
        "--no-serving", action="store_true",
        help="leave out the serving phase (each language's ways served at a rate within the "
        "bound, coarse: callbench serve-rate serves at the full pace)",
    )  # fmt: skip
    add_user_model(p)
    add_widths(
        p, "also the model-size sweep at these widths ('all': every exported one); with "
        "--only, every chosen driver runs at each, else each runtime's fastest (--swept)",
    )  # fmt: skip


def add_p99(p: argparse.ArgumentParser, what: str) -> None:
    """``--p99``: one bound for every row served, and its default."""
    p.add_argument(
        "--p99", type=duration_ns, metavar="T", dest="p99_ns",
        help=f"{what} (default: 1ms for our MLP; for your model 10x the slowest compared "
        "row's median call at one caller, up to a 1-2-5 step)",
    )  # fmt: skip


def add_no_arguments(p: argparse.ArgumentParser) -> None:
    """A command without options."""
