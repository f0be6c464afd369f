"""What every scripts/build_<lang>.py shares: one-line failures, running a tool, the command line.

Each build script writes ``build(args) -> str`` (what it built, for the last
line) and ends with ``sys.exit(_build.main("build_<lang>", __doc__, build))``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


class BuildError(Exception):
    """A one-line reason the build cannot go on."""


def require(tools: Mapping[str, str]) -> None:
    """Each tool (a command name) on PATH, or a BuildError saying what to install."""
    for tool, what in tools.items():
        if shutil.which(tool) is None:
            raise BuildError(f"{tool} not found: install {what}")


def run(
    *command: str | Path,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    capture: bool = False,
    what: str | None = None,
) -> str:
    """Run a tool, echoed first; its stdout when ``capture``; a BuildError when it fails."""
    words = [str(c) for c in command]
    print("+", " ".join(words), flush=True)
    result = subprocess.run(
        words, cwd=cwd, env=None if env is None else dict(env), check=False,
        stdout=subprocess.PIPE if capture else None, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        raise BuildError(f"{what or Path(words[0]).name} failed (exit {result.returncode})")
    return result.stdout or ""


def point(link: Path, target: Path) -> None:
    """Make ``link`` a symlink to ``target``, touching nothing if it already is one."""
    if link.is_symlink() and link.readlink() == target:
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(link.name + ".tmp")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    tmp.replace(link)


def main(
    name: str,
    doc: str | None,
    build: Callable[[argparse.Namespace], str],
    argv: list[str] | None = None,
    *,
    test_help: str = "run the language's tests too",
    lint_help: str = "run the language's linters too",
    more_options: Callable[[argparse.ArgumentParser], None] | None = None,
) -> int:
    """Parse --test/--lint/--jobs (and a language's ``more_options``), build; one line on
    stderr and exit 1 when it cannot."""
    parser = argparse.ArgumentParser(prog=name, description=(doc or name).splitlines()[0])
    parser.add_argument("--test", action="store_true", help=test_help)
    parser.add_argument("--lint", action="store_true", help=lint_help)
    # Every core by default: each tool's own parallelism (Ninja's, Cargo's) set to the machine's.
    jobs = int(os.environ.get("CALLBENCH_JOBS") or os.cpu_count() or 2)
    parser.add_argument("--jobs", type=int, default=jobs, help=f"parallel jobs (default {jobs})")
    if more_options is not None:
        more_options(parser)
    args = parser.parse_args(argv)
    try:
        done = build(args)
    except BuildError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        return 1
    print(f"{name}: {done}")
    return 0
