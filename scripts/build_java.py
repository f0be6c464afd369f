"""Build java/ with Maven: compile the drivers, copy their runtime jars to java/target/lib.

    python scripts/build_java.py          # build (incremental, quiet on success)
    python scripts/build_java.py --test   # build, then run the JUnit tests (Surefire)

The JPype host (python -m callbench.languages.jvm_host) builds its classpath from
java/target/classes and java/target/lib/*.jar. When java/native/CMakeLists.txt
exists, the JNI native peer is built too, by scripts/build_java_native.py.
The FFM driver (java/ffm/) is compiled by the newest JDK >= 22 found here
against the kit's classes, with the onnxruntime jar's libonnxruntime.so taken
out beside it; without such a JDK it is left out, saying what to install.
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
import zipfile

import _build
from _build import BuildError

ROOT = _build.REPO_ROOT
JAVA = ROOT / "java"
TARGET = JAVA / "target"
STAMP = TARGET / ".callbench-build-stamp"
NATIVE_CMAKE = JAVA / "native" / "CMakeLists.txt"
NATIVE_SCRIPT = ROOT / "scripts" / "build_java_native.py"
MIN_JDK = 17

JDK_HINT = "install a JDK >= 17, e.g. `apt-get install openjdk-17-jdk-headless`"
MAVEN_HINT = "install Maven, e.g. `apt-get install maven`"


def require_tools() -> str:
    """The mvn executable, after checking java, javac (JDK >= 17) and mvn exist."""
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            raise BuildError(f"`{tool}` not found on PATH: {JDK_HINT}")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise BuildError(f"`mvn` not found on PATH: {MAVEN_HINT}")
    out = subprocess.run(["javac", "-version"], capture_output=True, text=True, check=False)
    text = (out.stdout + out.stderr).strip()
    match = re.search(r"javac (\d+)", text)
    if match is None:
        raise BuildError(
            f"cannot tell the JDK version from `javac -version` ({text!r}): {JDK_HINT}"
        )
    if int(match.group(1)) < MIN_JDK:
        raise BuildError(
            f"javac is JDK {match.group(1)}, the drivers need >= {MIN_JDK}: {JDK_HINT}"
        )
    return mvn


def source_fingerprint() -> str:
    """A digest of every build input's path, size and mtime (pom.xml, src/ and ffm/)."""
    digest = hashlib.sha256()
    sources = (p for folder in ("src", "ffm") for p in (JAVA / folder).rglob("*") if p.is_file())
    files = [JAVA / "pom.xml", *sorted(sources)]
    for path in files:
        stat = path.stat()
        digest.update(f"{path.relative_to(JAVA)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def up_to_date(fingerprint: str) -> bool:
    from callbench.languages import java, jdk

    built = (TARGET / "classes").is_dir() and any((TARGET / "lib").glob("*.jar"))
    if jdk.ffm_home() is not None:
        built = built and java.FFM_CLASSES.is_dir() and java.FFM_LIBRARY.is_file()
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
            raise BuildError(f"`{' '.join(command)}` failed in {JAVA} (output above)")
    elif subprocess.run(command, cwd=JAVA, check=False).returncode != 0:
        raise BuildError(f"`{' '.join(command)}` failed in {JAVA} (output above)")


def build_ffm() -> None:
    """java-onnxruntime-ffm: its classes compiled by a JDK >= 22 against the kit's, and
    the onnxruntime jar's own libonnxruntime.so beside them (the library the JNI rows
    load), or a line saying why not when no such JDK is here."""
    from callbench.languages import java, jdk

    home = jdk.ffm_home()
    if home is None:
        print(f"build_java: java-onnxruntime-ffm not built: install {jdk.INSTALL}")
        return
    shutil.rmtree(java.FFM_CLASSES, ignore_errors=True)
    sources = sorted(str(p) for p in java.FFM_SOURCES.rglob("*.java"))
    _build.run(home / "bin" / "javac", "--release", str(jdk.FFM_RELEASE), "-Xlint:all",
               "-Werror", "-cp", TARGET / "classes", "-d", java.FFM_CLASSES, *sources,
               what="javac of java/ffm (output above)")  # fmt: skip
    jars = sorted((TARGET / "lib").glob("onnxruntime-*.jar"))
    if not jars:
        raise BuildError(f"{TARGET / 'lib'}: no onnxruntime jar to take libonnxruntime.so from")
    with zipfile.ZipFile(jars[-1]) as jar:
        if java.FFM_LIBRARY_IN_JAR not in jar.namelist():
            raise BuildError(f"{jars[-1]}: has no {java.FFM_LIBRARY_IN_JAR} for this machine")
        library = jar.read(java.FFM_LIBRARY_IN_JAR)
    java.FFM_LIBRARY.parent.mkdir(parents=True, exist_ok=True)
    java.FFM_LIBRARY.write_bytes(library)


def build(args: argparse.Namespace) -> str:
    mvn = require_tools()
    fingerprint = source_fingerprint()
    if not up_to_date(fingerprint):
        STAMP.unlink(missing_ok=True)
        maven(mvn, "package", "-DskipTests", quiet=True)
        build_ffm()
        STAMP.write_text(fingerprint + "\n")
    # The JNI native peer builds with its own script when present.
    if NATIVE_CMAKE.is_file() and NATIVE_SCRIPT.is_file():
        _build.run(sys.executable, NATIVE_SCRIPT, what=f"{NATIVE_SCRIPT.name} (output above)")
    if args.test:
        # Surefire prints its own summary ("Tests run: ..."), so not quiet.
        maven(mvn, "test", quiet=False)
    return f"drivers in {TARGET / 'classes'}"


if __name__ == "__main__":
    # --lint is the build itself (javac -Xlint in every compile); accepted so
    # `callbench build --lint` treats every language alike.
    sys.exit(
        _build.main(
            "build_java",
            __doc__,
            build,
            test_help="also run the JUnit tests",
            lint_help="the build itself (javac -Xlint)",
        )
    )
