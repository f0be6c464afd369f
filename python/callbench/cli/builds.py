"""``callbench build [LANG ...]``: each language's own build tool, via scripts/build_<lang>.py."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence

from callbench.paths import REPO_ROOT

# Languages with a build script (Python's: the compiled floors' extensions).
BUILT = ("python", "cpp", "java", "rust", "go", "node")
# Without its toolchain a language is not built: its drivers are recorded as skipped.
TOOLCHAINS = {"cpp": "cmake", "java": "mvn", "rust": "cargo", "go": "go", "node": "npm"}


def build(languages: Sequence[str], *flags: str) -> list[str]:
    """Build each language; return the ones whose build failed (each said why in one line)."""
    failed = []
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
        done = subprocess.run([sys.executable, str(script), *flags], check=False)
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
