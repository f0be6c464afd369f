"""Build java/ with Maven: compile the drivers, copy their runtime jars to java/target/lib.

    python scripts/build_java.py          # build (incremental, quiet on success)
    python scripts/build_java.py --test   # build, then run the JUnit tests (Surefire)

The JPype host (python -m callbench.languages.jvm_host) builds its classpath from
java/target/classes and java/target/lib/*.jar. When java/native/CMakeLists.txt
exists, the JNI native peer is built too, by scripts/build_java_native.py.
Maven is only started when pom.xml or a source file changed since the last
good build, so a second run with nothing changed takes well under a second.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JAVA = ROOT / "java"
TARGET = JAVA / "target"
STAMP = TARGET / ".callbench-build-stamp"
NATIVE_CMAKE = JAVA / "native" / "CMakeLists.txt"
NATIVE_SCRIPT = ROOT / "scripts" / "build_java_native.py"
MIN_JDK = 17

JDK_HINT = "install a JDK >= 17, e.g. `apt-get install openjdk-17-jdk-headless`"
MAVEN_HINT = "install Maven, e.g. `apt-get install maven`"


def fail(message: str) -> None:
    print(f"build_java: error: {message}", file=sys.stderr)
    sys.exit(1)


def require_tools() -> str:
    """The mvn executable, after checking java, javac (JDK >= 17) and mvn exist."""
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            fail(f"`{tool}` not found on PATH: {JDK_HINT}")
    mvn = shutil.which("mvn")
    if mvn is None:
        fail(f"`mvn` not found on PATH: {MAVEN_HINT}")
    assert mvn is not None
    out = subprocess.run(["javac", "-version"], capture_output=True, text=True, check=False)
    text = (out.stdout + out.stderr).strip()
    match = re.search(r"javac (\d+)", text)
    if match is None:
        fail(f"cannot tell the JDK version from `javac -version` ({text!r}): {JDK_HINT}")
    assert match is not None
    if int(match.group(1)) < MIN_JDK:
        fail(f"javac is JDK {match.group(1)}, the drivers need >= {MIN_JDK}: {JDK_HINT}")
    return mvn


def source_fingerprint() -> str:
    """A digest of every build input's path, size and mtime (pom.xml and src/)."""
    digest = hashlib.sha256()
    files = [JAVA / "pom.xml", *sorted(p for p in (JAVA / "src").rglob("*") if p.is_file())]
    for path in files:
        stat = path.stat()
        digest.update(f"{path.relative_to(JAVA)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def up_to_date(fingerprint: str) -> bool:
    built = (TARGET / "classes").is_dir() and any((TARGET / "lib").glob("*.jar"))
    return built and STAMP.is_file() and STAMP.read_text().strip() == fingerprint


def maven(mvn: str, *goals: str, quiet: bool) -> None:
    """Run Maven in java/; when quiet, show its output only if it fails."""
    command = [mvn, "-B", "--no-transfer-progress", *goals]
    if quiet:
        result = subprocess.run(
            [*command, "-q"], cwd=JAVA, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            sys.stderr.write(result.stdout + result.stderr)
            fail(f"`{' '.join(command)}` failed in {JAVA} (output above)")
    elif subprocess.run(command, cwd=JAVA, check=False).returncode != 0:
        fail(f"`{' '.join(command)}` failed in {JAVA} (output above)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="also run the JUnit tests")
    # The build is the lint (javac -Xlint in every compile); accepted so `callbench build --lint`
    # treats every language alike.
    parser.add_argument("--lint", action="store_true", help="the build itself (javac -Xlint)")
    args = parser.parse_args()

    mvn = require_tools()
    fingerprint = source_fingerprint()
    if not up_to_date(fingerprint):
        STAMP.unlink(missing_ok=True)
        maven(mvn, "package", "-DskipTests", quiet=True)
        STAMP.write_text(fingerprint + "\n")

    # The JNI native peer (issue 5) builds with its own script when present.
    native = NATIVE_CMAKE.is_file() and NATIVE_SCRIPT.is_file()
    if native and subprocess.run([sys.executable, str(NATIVE_SCRIPT)], check=False).returncode:
        fail(f"{NATIVE_SCRIPT.name} failed (output above)")

    if args.test:
        # Surefire prints its own summary ("Tests run: ..."), so not quiet.
        maven(mvn, "test", quiet=False)


if __name__ == "__main__":
    main()
