"""Options several subcommands share: the run protocol and the driver selection."""

from __future__ import annotations

import argparse
from pathlib import Path

from callbench.command_line import count, positive
from callbench.errors import UsageError
from callbench.harness import gpu_sweep
from callbench.harness.options import FIXED_ROUNDS, RunOptions
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


def widths(args: argparse.Namespace) -> list[Width]:
    """The family widths --widths asks for ('all': every exported one), each folder checked."""
    text = (args.widths or "").strip()
    if not text:
        return []
    asked = family.exported(args.models) if text == "all" else family.parse_widths(text)
    return family.resolve(args.models, asked)


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


def add_protocol(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("protocol")
    g.add_argument("--models", type=Path, default=Path("models"))
    g.add_argument(
        "--calls", type=count(1),
        help="calls per round for every driver (1000000: the seed's protocol); "
        "default: calibrated per driver to --round-time",
    )  # fmt: skip
    # Not --repeats: to a driver that is a standalone run's back-to-back rounds.
    g.add_argument(
        "--rounds", type=count(1), help="interleaved rounds (default 21; 3 with --calls)"
    )
    g.add_argument("--round-time", type=positive, help="seconds a calibrated round aims at")
    g.add_argument("--warmup", type=count(0), help="untimed calls after loading (default 10000)")
    g.add_argument("--batch", type=count(1), default=1)
    g.add_argument("--threads", type=count(1), default=1)
    g.add_argument("--no-pin", action="store_true", help="do not pin drivers to a core")
    g.add_argument("--reruns", type=count(0), help="re-runs of a flagged round (default 2)")
    g.add_argument(
        "--no-contention-flags",
        action="store_true",
        help="count rounds whose contention probe ran slow (flagged and re-run by default)",
    )
    g.add_argument("--seed", type=int, default=0, help="shuffles the round order")
    g.add_argument("--debug", action="store_true", help="show tracebacks")


def add_where(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs-dir", type=Path, default=RUNS)
    p.add_argument("--run-id", help="add to this run (made if missing) instead of a new one")


def run_options(args: argparse.Namespace, **defaults: object) -> RunOptions:
    """RunOptions from the parsed options; ``defaults`` stand where an option was not given."""
    base = RunOptions(**defaults)  # type: ignore[arg-type]
    given = {
        "models": args.models, "calls": args.calls, "rounds": args.rounds,
        "round_time": args.round_time, "warmup": args.warmup, "batch": args.batch,
        "threads": args.threads, "reruns": args.reruns, "seed": args.seed, "debug": args.debug,
    }  # fmt: skip
    values = {k: v for k, v in given.items() if v is not None}
    if args.calls is not None and args.rounds is None:
        values["rounds"] = FIXED_ROUNDS  # a million calls a round: the seed's few repeats
    if args.no_pin:
        values["pin"] = False
    if args.no_contention_flags:
        values["contention_flags"] = False
    return RunOptions(**{**base.__dict__, **values})
