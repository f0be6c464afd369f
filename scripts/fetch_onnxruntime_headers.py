"""Fetch and cache the ONNX Runtime C/C++ headers for the C++ drivers.

The onnxruntime wheel ships libonnxruntime.so but no headers, so they come
from Debian's libonnxruntime-dev, a pinned version and sha256, taken with
Debian's own client, ``apt-get download``, and cached under .cache/ (git-ignored):

1. through the system's apt, where its suites carry the package (trixie and later);
2. else (bookworm has no such package) through a private apt state under the
   cache that lists the pinned suite on the Debian mirror the system's apt
   already uses (``apt-get indextargets``). apt checks the .deb against the
   signed archive index either way, and the pinned sha256 is checked after.

Headers older than the library are fine: the C API is versioned (the headers
ask OrtGetApiBase()->GetApi(ORT_API_VERSION)) and a newer libonnxruntime
serves every older API version.

Prints the include folder on the last line of stdout; exits 1 with one line
saying what is wrong if no source works.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = REPO_ROOT / ".cache" / "onnxruntime-headers"
# Debian's package, pinned; its headers are API version 21 (ORT 1.21).
DEBIAN_SUITE = "trixie"
DEBIAN_PACKAGE = "libonnxruntime-dev"
DEBIAN_VERSION = "1.21.0+dfsg-1"
DEBIAN_SHA256 = "14f7d959d5deacbcf1504830d4189f91fc67382b399ed9ae9d3aa9c4050ced08"
REQUIRED_HEADER = "onnxruntime_cxx_api.h"


class FetchError(Exception):
    """A source could not deliver the headers (the message says why)."""


def installed_onnxruntime_version() -> str:
    try:
        import onnxruntime
    except ImportError:
        raise FetchError(f"onnxruntime is not installed in {sys.executable}") from None
    return str(onnxruntime.__version__)


def system_mirror() -> str:
    """The Debian archive the system's apt fetches from (its own mirror choice)."""
    result = subprocess.run(
        ["apt-get", "indextargets", "--format", "$(REPO_URI) $(RELEASE)"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    for line in result.stdout.splitlines():
        uri, _, release = line.partition(" ")
        if uri and "security" not in release and "security" not in uri:
            return uri.rstrip("/")
    raise FetchError("apt-get indextargets names no Debian archive (is apt configured?)")


def apt_download(options: list[str], spec: str, debs: Path, update: bool) -> str | None:
    """``apt-get download spec`` into ``debs`` (after ``update`` if asked); None, or why not."""
    steps = [["update"]] if update else []
    for step in [*steps, ["download", spec]]:
        result = subprocess.run(
            ["apt-get", *options, "-q", *step], cwd=debs, capture_output=True, text=True
        )
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no output"])[-1]
            return f"apt-get {' '.join(step)} failed: {last}"
    return None


def from_debian(cache: Path, dest: Path) -> str:
    """Headers from Debian's pinned libonnxruntime-dev, fetched with apt-get."""
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            raise FetchError(f"{tool} not found (apt-get download takes the headers)")
    spec = f"{DEBIAN_PACKAGE}={DEBIAN_VERSION}"
    apt = cache / "apt"
    debs = apt / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    found = sorted(debs.glob(f"{DEBIAN_PACKAGE}_*.deb"))
    if not found:
        why = apt_download([], spec, debs, update=False)
        if why is not None:
            for folder in (apt / "lists" / "partial", apt / "cache" / "archives" / "partial"):
                folder.mkdir(parents=True, exist_ok=True)
            sources = apt / "sources.list"
            sources.write_text(f"deb [arch=amd64] {system_mirror()} {DEBIAN_SUITE} main\n")
            private = [
                "-o", f"Dir::Etc::SourceList={sources}",
                "-o", "Dir::Etc::SourceParts=/dev/null",
                "-o", f"Dir::State::Lists={apt / 'lists'}",
                "-o", f"Dir::Cache={apt / 'cache'}",
                "-o", "Dir::State::Status=/dev/null",
                "-o", "APT::Sandbox::User=root",
            ]  # fmt: skip
            also = apt_download(private, spec, debs, update=True)
            if also is not None:
                raise FetchError(f"{why} (system apt); {also} ({DEBIAN_SUITE})")
        found = sorted(debs.glob(f"{DEBIAN_PACKAGE}_*.deb"))
        if not found:
            raise FetchError(f"apt-get download {spec} wrote no .deb")
    deb = found[-1]
    digest = hashlib.sha256(deb.read_bytes()).hexdigest()
    if digest != DEBIAN_SHA256:
        deb.unlink()
        raise FetchError(f"{deb.name}: sha256 {digest} is not the pinned {DEBIAN_SHA256}")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-x", str(deb), tmp], check=True)
        headers = Path(tmp) / "usr" / "include" / "onnxruntime"
        if not (headers / REQUIRED_HEADER).is_file():
            raise FetchError(f"{deb}: has no usr/include/onnxruntime/{REQUIRED_HEADER}")
        shutil.copytree(headers, dest, dirs_exist_ok=True)
    return f"debian {spec} ({DEBIAN_SUITE}, sha256 {digest})"


def fetch(version: str, cache: Path) -> Path:
    """The cached include folder for ``version``, fetching it on first use."""
    stamp = cache / f"{version}.json"
    if stamp.is_file():
        include = Path(json.loads(stamp.read_text())["include"])
        if (include / REQUIRED_HEADER).is_file():
            return include
    cache.mkdir(parents=True, exist_ok=True)
    dest = cache / f"debian-{DEBIAN_VERSION}" / "include"
    shutil.rmtree(dest.parent, ignore_errors=True)
    dest.mkdir(parents=True)
    try:
        origin = from_debian(cache, dest)
    except FetchError:
        shutil.rmtree(dest.parent, ignore_errors=True)
        raise
    stamp.write_text(json.dumps({"include": str(dest), "origin": origin}, indent=2) + "\n")
    print(f"fetch_onnxruntime_headers: headers from {origin}", file=sys.stderr)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", help="onnxruntime version (default: the installed wheel's)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    try:
        include = fetch(args.version or installed_onnxruntime_version(), args.cache)
    except FetchError as exc:
        print(f"fetch_onnxruntime_headers: error: {exc}", file=sys.stderr)
        return 1
    print(include)
    return 0


if __name__ == "__main__":
    sys.exit(main())
