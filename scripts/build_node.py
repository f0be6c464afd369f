"""Install the Node drivers (node/) with npm ci; --test runs node --test, --lint node --check.

The drivers are plain ES modules run as `node node/drivers/<id>.js`: there is
nothing to compile. onnxruntime-node comes from npm, pinned in
node/package-lock.json; its tarball holds the linux-x64 binding and
libonnxruntime.so.1. Its postinstall script would fetch CUDA binaries from a
host outside the package registries, so install scripts are off
(--ignore-scripts). npm ci is skipped when node_modules already matches the
lock file (a stamp of its sha256 in node_modules/).
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

import _build
from _build import BuildError

REPO_ROOT = _build.REPO_ROOT
SOURCE = REPO_ROOT / "node"
LOCK = SOURCE / "package-lock.json"
STAMP = SOURCE / "node_modules" / ".callbench-lock-sha256"
SOURCE_FOLDERS = ("kit", "drivers", "ortsupport", "test", "test-drivers")
NODE_MAJOR = 20  # node:util parseArgs and node --test, stable from 20

TOOLS = {
    "node": f"Node.js >= {NODE_MAJOR} (https://nodejs.org, or apt-get install nodejs)",
    "npm": "npm (apt-get install npm, or the one bundled with Node.js)",
}


def require_tools() -> None:
    _build.require(TOOLS)
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    major = version.stdout.strip().lstrip("v").split(".")[0]
    if not major.isdigit() or int(major) < NODE_MAJOR:
        raise BuildError(f"node {version.stdout.strip()} is too old: install {TOOLS['node']}")


def run(*command: str | Path) -> None:
    _build.run(*command, cwd=SOURCE, what=" ".join(str(c) for c in command[:2]))


def install() -> None:
    """npm ci --ignore-scripts, unless node_modules is already that of the lock file."""
    digest = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    if STAMP.is_file() and STAMP.read_text().strip() == digest:
        print("build_node: node_modules matches package-lock.json", flush=True)
        return
    run("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
    STAMP.write_text(digest + "\n")


def sources() -> list[Path]:
    return sorted(p for folder in SOURCE_FOLDERS for p in (SOURCE / folder).rglob("*.js"))


def build(args: argparse.Namespace) -> str:
    require_tools()
    install()
    if args.lint:
        for path in sources():
            run("node", "--check", path.relative_to(SOURCE))
    if args.test:
        run("node", "--test")
    return f"drivers in {SOURCE / 'drivers'}"


if __name__ == "__main__":
    sys.exit(
        _build.main(
            "build_node",
            __doc__,
            build,
            test_help="run node --test too",
            lint_help="run node --check on every file too",
        )
    )
