"""``callbench count``: instructions per call under callgrind, into a run beside its times.

The parser is built on every ``callbench`` call; the harness is imported only to count.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
from pathlib import Path

from callbench.cli import common
from callbench.harness.options import RunOptions, add_options
from callbench.paths import RUNS


def add_arguments(p: argparse.ArgumentParser) -> None:
    common.add_selection(p)
    p.add_argument("--runs-dir", type=Path, default=RUNS)
    p.add_argument(
        "--run-id", help="the run to add counts to (default: this host's newest, or a new one)"
    )
    add_options(p, "models", "calls", "pairs", "warmup", "jobs", "cache_sim")
    p.add_argument("--build", action="store_true", help="build the languages first")
    add_options(p, "debug")


def run_folder(args: argparse.Namespace, options: RunOptions) -> Path:
    """The run named, else the newest, else a new one (with its env.json)."""
    from callbench.harness.run import write_env
    from callbench.records.store import find_run, latest_run, new_run_dir

    if args.run_id is not None:
        if (args.runs_dir / args.run_id).is_dir() or Path(args.run_id).is_dir():
            return find_run(args.run_id, args.runs_dir)
        run_dir = new_run_dir(args.runs_dir, args.run_id)
    else:
        # The newest run of this machine: a count belongs beside times of the same host,
        # and a fresh clone's newest run is the committed one, timed elsewhere.
        newest = latest_run(args.runs_dir)
        if newest is not None and _host(newest) == socket.gethostname() and not _committed(newest):
            return newest
        run_dir = new_run_dir(args.runs_dir)
    write_env(run_dir, RunOptions(models=options.models), options.models)
    return run_dir


def _committed(run_dir: Path) -> bool:
    """Whether git tracks the run: a committed run is the project's record, not a scratch run."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "env.json"],
            cwd=run_dir, capture_output=True, check=False,
        )  # fmt: skip
    except OSError:
        return False
    return done.returncode == 0


def _host(run_dir: Path) -> str | None:
    try:
        env = json.loads((run_dir / "env.json").read_text())
    except (OSError, ValueError):
        return None
    host = env.get("host") if isinstance(env, dict) else None
    return str(host) if host is not None else None


def main(args: argparse.Namespace) -> int:
    from callbench.cli.builds import build
    from callbench.cli.ending import stopped
    from callbench.harness import signals
    from callbench.harness.count.run import count_drivers
    from callbench.registry import language_key
    from callbench.roles import CALLERS_ONLY

    signals.install()
    # A count is of one caller, where a callers-only row is its twin's (roles.CALLERS_ONLY).
    specs = [s for s in common.selection(args) if CALLERS_ONLY not in s.roles]
    options = RunOptions.of(args)
    if args.build:
        build(sorted({language_key(s) for s in specs}), chosen=specs)
    run_dir = run_folder(args, options)
    try:
        done = count_drivers(specs, options, run_dir)
    except KeyboardInterrupt as stop:
        return stopped(stop, run_dir)
    counted = sum(1 for r in done if r.count and r.count["status"] == "ok")
    print(f"\n{counted} of {len(done)} drivers counted; records: {run_dir}")
    return 0
