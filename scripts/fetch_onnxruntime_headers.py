"""Fetch and cache the ONNX Runtime C/C++ headers for the C++ drivers.

The onnxruntime wheel ships libonnxruntime.so but no headers, so they come
from a package registry, checked, and are cached under .cache/ (git-ignored):

1. Maven Central: the onnxruntime-android AAR of the wheel's exact version
   (it ships headers/), verified against the .sha256 (or .sha1) published
   beside it.
2. If Maven Central has no AAR of that version: Debian's libonnxruntime-dev,
   a pinned version, downloaded with apt-get from a private apt state under
   the cache (apt checks the .deb against the signed archive index).

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
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = REPO_ROOT / ".cache" / "onnxruntime-headers"
MAVEN_BASE = "https://repo1.maven.org/maven2/com/microsoft/onnxruntime/onnxruntime-android"
# Debian's package, pinned; its headers are API version 21 (ORT 1.21).
DEBIAN_SUITE = "trixie"
DEBIAN_PACKAGE = "libonnxruntime-dev"
DEBIAN_VERSION = "1.21.0+dfsg-1"
DEBIAN_SHA256 = "14f7d959d5deacbcf1504830d4189f91fc67382b399ed9ae9d3aa9c4050ced08"
DEBIAN_MIRROR = "http://deb.debian.org/debian"
REQUIRED_HEADER = "onnxruntime_cxx_api.h"


class FetchError(Exception):
    """A source could not deliver the headers (the message says why)."""


def installed_onnxruntime_version() -> str:
    try:
        import onnxruntime
    except ImportError:
        raise FetchError(f"onnxruntime is not installed in {sys.executable}") from None
    return str(onnxruntime.__version__)


def http_get(url: str) -> bytes | None:
    """The body, or None if the registry says the file does not exist."""
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            data: bytes = response.read()
            return data
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None
        raise FetchError(f"{url}: HTTP {exc.code}") from None
    except urllib.error.URLError as exc:
        raise FetchError(f"{url}: {exc.reason}") from None


def from_maven(version: str, dest: Path) -> str:
    """Headers from the onnxruntime-android AAR of ``version``, checksum-verified."""
    url = f"{MAVEN_BASE}/{version}/onnxruntime-android-{version}.aar"
    for algorithm in ("sha256", "sha1"):
        expected = http_get(f"{url}.{algorithm}")
        if expected is not None:
            break
    else:
        raise FetchError(f"Maven Central has no onnxruntime-android {version} ({url})")
    aar = http_get(url)
    if aar is None:
        raise FetchError(f"{url}: not found although its checksum is")
    digest = hashlib.new(algorithm, aar).hexdigest()
    wanted = expected.decode().split()[0].strip().lower()
    if digest != wanted:
        raise FetchError(f"{url}: {algorithm} {digest} does not match the published {wanted}")
    with tempfile.TemporaryDirectory() as tmp:
        aar_path = Path(tmp) / "onnxruntime-android.aar"
        aar_path.write_bytes(aar)
        with zipfile.ZipFile(aar_path) as archive:
            members = [
                m for m in archive.namelist() if m.startswith("headers/") and m.endswith(".h")
            ]
            if not members:
                raise FetchError(f"{url}: the AAR has no headers/ folder")
            for member in members:
                target = dest / member.removeprefix("headers/")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(member))
    return f"maven onnxruntime-android {version} ({algorithm} {digest})"


def from_debian(cache: Path, dest: Path) -> str:
    """Headers from Debian's pinned libonnxruntime-dev, fetched with apt-get."""
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            raise FetchError(f"{tool} not found (needed for the Debian fallback)")
    apt = cache / "apt"
    for folder in (apt / "lists" / "partial", apt / "cache" / "archives" / "partial", apt / "debs"):
        folder.mkdir(parents=True, exist_ok=True)
    sources = apt / "sources.list"
    sources.write_text(f"deb [arch=amd64] {DEBIAN_MIRROR} {DEBIAN_SUITE} main\n")
    options = [
        "-o", f"Dir::Etc::SourceList={sources}",
        "-o", "Dir::Etc::SourceParts=/dev/null",
        "-o", f"Dir::State::Lists={apt / 'lists'}",
        "-o", f"Dir::Cache={apt / 'cache'}",
        "-o", "Dir::State::Status=/dev/null",
        "-o", "APT::Sandbox::User=root",
        "-q",
    ]  # fmt: skip
    spec = f"{DEBIAN_PACKAGE}={DEBIAN_VERSION}"
    debs = apt / "debs"
    found = sorted(debs.glob(f"{DEBIAN_PACKAGE}_*.deb"))
    if not found:
        for step in (["update"], ["download", spec]):
            result = subprocess.run(
                ["apt-get", *options, *step], cwd=debs, capture_output=True, text=True
            )
            if result.returncode != 0:
                last = (result.stderr.strip().splitlines() or ["no output"])[-1]
                raise FetchError(f"apt-get {' '.join(step)} ({DEBIAN_SUITE}) failed: {last}")
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
    failures = []
    for name, source in (
        (f"maven-{version}", lambda dest: from_maven(version, dest)),
        (f"debian-{DEBIAN_VERSION}", lambda dest: from_debian(cache, dest)),
    ):
        dest = cache / name / "include"
        shutil.rmtree(dest.parent, ignore_errors=True)
        dest.mkdir(parents=True)
        try:
            origin = source(dest)
        except FetchError as exc:
            failures.append(str(exc))
            print(f"fetch_onnxruntime_headers: {exc}", file=sys.stderr)
            shutil.rmtree(dest.parent, ignore_errors=True)
            continue
        if not (dest / REQUIRED_HEADER).is_file():
            failures.append(f"{name}: no {REQUIRED_HEADER}")
            continue
        stamp.write_text(json.dumps({"include": str(dest), "origin": origin}, indent=2) + "\n")
        print(f"fetch_onnxruntime_headers: headers from {origin}", file=sys.stderr)
        return dest
    raise FetchError("no source had the ONNX Runtime headers: " + "; ".join(failures))


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
