"""``callbench profile``: where a Python driver's call goes, or the overhead ladder.

    callbench profile driver DRIVER [--models DIR] [--calls N] [--warmup W] [--batch B]
                                    [--threads T] [--top K] [--no-native] [--seconds S]
                                    [--rate HZ] [--flame SVG] [--debug]
    callbench profile ladder [--run-dir DIR] [--models DIR] [--calls N] [--warmup W]
                             [--rounds R] [--batch B] [--threads T] [--debug]

The first runs DRIVER's own loop under cProfile, then under py-spy with
native frames (where py-spy can run), and prints the top frames with their
share of a call; ``--flame`` also writes py-spy's flame graph. The second
times the ladder of the torch and ONNX Runtime paths and writes
``ladder.json`` into ``--run-dir``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from callbench.command_line import Parser, count, positive, report_errors
from callbench.errors import UsageError
from callbench.harness.options import RunOptions, add_options

if TYPE_CHECKING:
    import numpy as np

PROG = "callbench profile"
PROFILE_CALLS = 20_000
# What a profile takes of the run's options (RunOptions declares them).
PROTOCOL = ("models", "calls", "warmup", "warmup_time", "batch", "threads", "debug")


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(
        dest="what", metavar="{driver,ladder}", required=True, parser_class=Parser
    )
    d = sub.add_parser("driver", help="a Python driver's frames (cProfile, then py-spy)")
    d.add_argument("driver", help="a Python driver id (see `callbench list`)")
    add_options(d, *PROTOCOL)
    d.add_argument("--top", type=count(1), default=12, help="frames shown per table")
    d.add_argument("--no-native", action="store_true", help="cProfile only, no py-spy")
    d.add_argument("--seconds", type=positive, default=3.0, help="py-spy's sampling time")
    d.add_argument("--rate", type=count(1), default=250, help="py-spy's samples a second")
    d.add_argument("--flame", type=Path, help="write py-spy's flame graph (SVG) here")
    lad = sub.add_parser("ladder", help="time the overhead ladder of torch and ONNX Runtime")
    add_options(lad, *PROTOCOL, "rounds")
    lad.add_argument("--run-dir", type=Path, help="the run folder ladder.json goes to")


def max_error(outputs: np.ndarray, models: Path) -> float:
    import numpy as np

    from callbench.model.artifacts import read_reference

    reference = read_reference(models)[: len(outputs)]
    return float(np.max(np.abs(outputs - reference)))


def profile_driver(args: argparse.Namespace) -> int:
    # Imported here: callbench builds every command's parser on each call.
    from callbench.profile import native_frames, python_frames
    from callbench.profile.target import loaded
    from callbench.report.blocks.frames_table import render

    given = RunOptions.of(args)
    options = given.driver_options(given.calls or PROFILE_CALLS)
    with loaded(args.driver, options) as driver:
        per_call = python_frames.unprofiled_ns(driver)
        error = max_error(driver.outputs[0], options.models)
        profile = python_frames.profile_loop(driver)
    print(f"# {args.driver}: where a call's time goes\n")
    print(f"{options.calls:,} calls, batch {options.batch}, {options.threads} thread(s): "
          f"{per_call / 1e3:.3f} µs a call unprofiled; outputs against reference.f32: "
          f"max error {error:.1e}.\n")  # fmt: skip
    print(f"## Python frames (cProfile): {profile.total / profile.calls * 1e6:.3f} µs a call "
          "under the profiler\n")  # fmt: skip
    print("Own time of each function and of each C function called from Python. cProfile's "
          "hooks slow Python frames more than native ones; ≈ µs scales the shares to the "
          "unprofiled call.\n")  # fmt: skip
    print(render(profile, args.top, per_call))
    if args.no_native:
        return 0
    sampling = native_frames.Sampling(args.seconds, args.rate)
    try:
        samples = native_frames.sample(args.driver, options, sampling)
    except native_frames.NativeProfilerError as exc:
        print(f"\npy-spy cannot run here ({exc}): Python frames only.")
        if args.flame is not None:
            raise UsageError(f"--flame needs py-spy, which cannot run here: {exc}") from None
        return 0
    print(f"\n## Native and Python frames (py-spy --native, {samples.total:.0f} samples "
          "inside the loop)\n")  # fmt: skip
    print("Self samples of the innermost frame; CPython's own interpreter frames are folded "
          "into the Python frame they run.\n")  # fmt: skip
    print(render(samples, args.top, per_call))
    print("\n### By library\n")
    print(render(native_frames.by_library(samples), args.top, per_call))
    if args.flame is not None:
        path = native_frames.flame_graph(args.driver, options, sampling, args.flame)
        print(f"\nflame graph (loading included; the calls are under `spin`): {path}")
    return 0


LADDER_CALLS = 20_000
QUICK_LADDER_CALLS = 2_000
# bench's ladder: five interleaved rounds of 20,000 calls per step, about half a minute.
LADDER_ROUNDS = 5


def run_ladder(options: RunOptions, run_dir: Path | None = None) -> None:
    """Time the ladder (``options.rounds`` interleaved rounds of ``options.calls`` calls a
    step, 20,000 if not given), print its table, write ladder.json into ``run_dir`` if given.

    Steps that do not add up to the full call are said on stderr, not an error.
    """
    from callbench.profile.ladder.measure import measure
    from callbench.profile.ladder.onnxruntime_path import onnxruntime_path
    from callbench.profile.ladder.torch_path import torch_path
    from callbench.records import ladder as ladder_record
    from callbench.report.blocks.ladder_table import ladder_table

    steps = options.driver_options(options.calls or LADDER_CALLS)
    result = measure([torch_path, onnxruntime_path], steps, options.rounds)
    print(ladder_table(result))
    if run_dir is not None:
        run_dir.mkdir(parents=True, exist_ok=True)
        print(f"\nwrote {ladder_record.write(run_dir, result)}")
    failed = [r.runtime for r in result.runtimes if not r.adds_up]
    if failed:
        print(f"{PROG} ladder: the steps of {', '.join(failed)} do not add up to the full call "
              f"within {ladder_record.TOLERANCE:.0%}", file=sys.stderr)  # fmt: skip


def main(args: argparse.Namespace) -> int:
    if args.what == "ladder":
        run_ladder(RunOptions.of(args), args.run_dir)
        return 0
    return profile_driver(args)


if __name__ == "__main__":
    p = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    add_arguments(p)
    argv = sys.argv[1:]
    sys.exit(report_errors(PROG, lambda: main(p.parse_args(argv)), "--debug" in argv,
                           catch_all=True))  # fmt: skip
