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
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE = REPO_ROOT / "node"
LOCK = SOURCE / "package-lock.json"
STAMP = SOURCE / "node_modules" / ".callbench-lock-sha256"
SOURCE_FOLDERS = ("kit", "drivers", "ortsupport", "test")
NODE_MAJOR = 20  # node:util parseArgs and node --test, stable from 20

TOOLS = {
    "node": f"Node.js >= {NODE_MAJOR} (https://nodejs.org, or apt-get install nodejs)",
    "npm": "npm (apt-get install npm, or the one bundled with Node.js)",
}


class BuildError(Exception):
    """A one-line reason the build cannot go on."""


def require_tools() -> None:
    for tool, what in TOOLS.items():
        if shutil.which(tool) is None:
            raise BuildError(f"{tool} not found: install {what}")
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    major = version.stdout.strip().lstrip("v").split(".")[0]
    if not major.isdigit() or int(major) < NODE_MAJOR:
        raise BuildError(f"node {version.stdout.strip()} is too old: install {TOOLS['node']}")


def run(*command: str | Path) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    result = subprocess.run([str(c) for c in command], cwd=SOURCE, check=False)
    if result.returncode != 0:
        what = " ".join(str(c) for c in command[:2])
        raise BuildError(f"{what} failed (exit {result.returncode})")


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="run node --test too")
    parser.add_argument("--lint", action="store_true", help="run node --check on every file too")
    args = parser.parse_args(argv)
    try:
        require_tools()
        install()
        if args.lint:
            for path in sources():
                run("node", "--check", path.relative_to(SOURCE))
        if args.test:
            run("node", "--test")
    except BuildError as exc:
        print(f"build_node: error: {exc}", file=sys.stderr)
        return 1
    print(f"build_node: drivers in {SOURCE / 'drivers'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
