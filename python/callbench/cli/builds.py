"""``callbench build [LANG ...]``: each language's own build tool, via scripts/build_<lang>.py."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from callbench.languages.spec import DriverSpec
from callbench.paths import BUILD, REPO_ROOT
from callbench.records.phases import CACHED, COLD, Phase, Phases
from callbench.registry import DRIVERS, language_key

# Languages with a build script (Python's: the compiled floors' extensions).
BUILT = ("python", "cpp", "java", "rust", "go", "node")
# Without its toolchain a language is not built: its drivers are recorded as skipped.
TOOLCHAINS = {"cpp": "cmake", "java": "mvn", "rust": "cargo", "go": "go", "node": "npm"}


def user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def reused(language: str) -> list[Path]:
    """The folders a language's build reuses when they are there: its build folder, and
    Cargo's and Go's caches, which every clone on the machine shares (scripts/build_rust.py
    puts Cargo's in CALLBENCH_CACHE_DIR, else ~/.cache/callbench)."""
    cache = Path(os.environ.get("CALLBENCH_CACHE_DIR") or user_cache() / "callbench")
    return {
        "python": [BUILD / "python"],
        "cpp": [BUILD / "cpp"],
        "java": [REPO_ROOT / "java" / "target"],
        "rust": [cache / "rust-target"],
        "go": [BUILD / "go", Path(os.environ.get("GOCACHE") or user_cache() / "go-build")],
        "node": [REPO_ROOT / "node" / "node_modules"],
    }.get(language, [])


def how_it_begins(language: str) -> str:
    """cold when none of the folders the build reuses holds anything yet, else cached."""
    there = any(folder.is_dir() and any(folder.iterdir()) for folder in reused(language))
    return CACHED if there else COLD


# Languages whose build script builds only the drivers named by --driver.
BUILT_BY_DRIVER = ("cpp", "rust")


def only_these(language: str, chosen: Sequence[DriverSpec]) -> list[str]:
    """``--driver ID`` for each chosen driver of a language that builds drivers one by one,
    when the choice leaves some of its drivers out; else nothing (build them all)."""
    if language not in BUILT_BY_DRIVER or not chosen:
        return []
    ids = sorted(s.id for s in chosen if language_key(s) == language)
    every = sorted(s.id for s in DRIVERS if language_key(s) == language)
    return [] if ids == every else [a for driver_id in ids for a in ("--driver", driver_id)]


def build(
    languages: Sequence[str],
    *flags: str,
    phases: Phases | None = None,
    chosen: Sequence[DriverSpec] = (),
) -> list[str]:
    """Build each language; return the ones whose build failed (each said why in one line).
    ``phases``: each language's build is timed into it, saying whether it began cold.
    ``chosen``: the drivers to be run, so that C++ and Rust build only those."""
    failed = []
    phases = phases if phases is not None else Phases()
    for language in languages:
        if language not in BUILT:
            continue
        script = REPO_ROOT / "scripts" / f"build_{language}.py"
        if not script.is_file():
            continue
        tool = TOOLCHAINS.get(language)
        if tool is not None and shutil.which(tool) is None:
            print(f"callbench: not building {language}: no `{tool}` on PATH "
                  "(its drivers will be recorded as skipped)", flush=True)  # fmt: skip
            continue
        print(f"callbench: building {language}", flush=True)
        begins = how_it_begins(language)
        started = time.perf_counter()
        command = [sys.executable, str(script), *flags, *only_these(language, chosen)]
        done = subprocess.run(command, check=False)
        seconds = round(time.perf_counter() - started, 3)
        phases.add(Phase("build", seconds, language, begins, failed=done.returncode != 0))
        if done.returncode != 0:
            failed.append(language)
    return failed


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("languages", nargs="*", help="default: every language")
    p.add_argument("--test", action="store_true", help="also run each language's unit tests")
    p.add_argument("--lint", action="store_true", help="also run each language's linters")


def main(args: argparse.Namespace) -> int:
    flags = [f for f, on in (("--test", args.test), ("--lint", args.lint)) if on]
    return 1 if build(args.languages or BUILT, *flags) else 0
