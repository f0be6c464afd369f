"""Host one Java driver in a JVM started through JPype.

``python -m callbench.languages.jvm_host --main dev.callbench.drivers.X [--native-lib-dir DIR]
[--debug] -- <contract options>`` starts a JVM whose classpath is
``java/target/classes`` plus ``java/target/lib/*.jar`` (written by
``scripts/build_java.py``), calls the class's ``main(String[])`` and exits as
the contract says: the timing loop and the JSON line are Java's; this process
only hosts them. A ``dev.callbench.CallbenchException`` carries the one-line
error and the exit status (2 usage, 1 data or model); anything else Java or
JPype throws becomes a one-line error with status 1. Stack traces only with
``--debug``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from callbench.errors import named_first_line
from callbench.paths import REPO_ROOT

JAVA_TARGET = REPO_ROOT / "java" / "target"
CLASSES = JAVA_TARGET / "classes"
LIB = JAVA_TARGET / "lib"
# Where DJL extracts LibTorch and its JNI library: the git-ignored build area,
# not $HOME.
DJL_CACHE = JAVA_TARGET / "djl-cache"
BUILD_HINT = "run `nox -s bench-java` (or `python scripts/build_java.py`) first"


class HostError(Exception):
    """A problem before Java runs (no build, no JVM), reported as one line, exit 1."""


def classpath() -> list[str]:
    """The compiled classes and every runtime jar Maven copied, in a stable order."""
    if not CLASSES.is_dir():
        raise HostError(f"{CLASSES}: missing; {BUILD_HINT}")
    jars = sorted(LIB.glob("*.jar")) if LIB.is_dir() else []
    if not jars:
        raise HostError(f"{LIB}: no runtime jars; {BUILD_HINT}")
    return [str(CLASSES), *map(str, jars)]


def jvm_options(native_lib_dir: Path | None, debug: bool) -> list[str]:
    """JVM flags: DJL offline with its cache under java/target, logging, native path."""
    options = [
        # DJL: never touch the network; LibTorch and the JNI library come from
        # the pytorch-native-cpu and pytorch-jni jars on the classpath.
        "-Dai.djl.offline=true",
        f"-DDJL_CACHE_DIR={DJL_CACHE}",
        f"-DENGINE_CACHE_DIR={DJL_CACHE}",
        # slf4j-simple writes to stderr; keep it to warnings unless debugging.
        f"-Dorg.slf4j.simpleLogger.defaultLogLevel={'debug' if debug else 'warn'}",
        "-Dorg.slf4j.simpleLogger.logFile=System.err",
        # No JVM handlers for SIGTERM and SIGINT: a stop ends the process at once, with
        # every caller thread in it (contract 4), as it ends every other kit's driver.
        "-Xrs",
    ]
    host = resident_bytes()
    if host is not None:
        # The JVM shares this process with CPython and JPype: the driver
        # reports this share apart from its own peak (contract, result line).
        options.append(f"-Dcallbench.host_rss_bytes={host}")
    if native_lib_dir is not None:
        options.append(f"-Djava.library.path={native_lib_dir}")
    return options


def resident_bytes() -> int | None:
    """This process's resident memory now (VmRSS), before the JVM starts."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="python -m callbench.languages.jvm_host",
        description="Run a Java driver's main(String[]) in a JPype-hosted JVM.",
    )
    parser.add_argument("--main", required=True, help="driver class, e.g. dev.callbench.drivers.X")
    parser.add_argument("--native-lib-dir", type=Path, help="added as -Djava.library.path")
    parser.add_argument("--debug", action="store_true", help="show Java and Python stack traces")
    argv = list(argv)
    driver_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, driver_args = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(argv)
    if args.debug:
        driver_args.append("--debug")
    return args, driver_args


def run(main_class: str, driver_args: list[str], native_lib_dir: Path | None, debug: bool) -> int:
    """Start the JVM, run ``main_class.main(driver_args)``, return the exit status."""
    import jpype

    if native_lib_dir is not None and not native_lib_dir.is_dir():
        raise HostError(f"{native_lib_dir}: native library folder missing; {BUILD_HINT}")
    try:
        jvm = jpype.getDefaultJVMPath()
    except jpype.JVMNotFoundException:
        raise HostError(
            "no JVM found: install a JDK >= 17 (apt-get install openjdk-17-jdk-headless) "
            "or set JAVA_HOME"
        ) from None
    jpype.startJVM(
        jvm, *jvm_options(native_lib_dir, debug), classpath=classpath(), convertStrings=False
    )
    failure_class = jpype.JClass("dev.callbench.CallbenchException")
    try:
        driver = jpype.JClass(main_class)
    except TypeError:
        raise HostError(f"{main_class}: no such Java class on {CLASSES}; {BUILD_HINT}") from None
    java_args = jpype.JArray(jpype.JString)(driver_args)
    try:
        driver.main(java_args)
    except jpype.JException as exc:
        if debug:
            exc.printStackTrace()
        if isinstance(exc, failure_class):
            print(str(exc.getMessage()), file=sys.stderr)
            return int(exc.exitStatus())
        print(f"{main_class}: error: {named_first_line(exc)}", file=sys.stderr)
        return 1
    finally:
        # Java's System.out is the same fd 1; flush it before Python exits.
        jpype.JClass("java.lang.System").out.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args, driver_args = parse(sys.argv[1:] if argv is None else argv)
    try:
        status = run(args.main, driver_args, args.native_lib_dir, args.debug)
    except HostError as exc:
        print(f"jvm_host: error: {exc}", file=sys.stderr)
        status = 1
    except Exception as exc:
        if args.debug:
            raise
        print(f"jvm_host: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip the JVM's shutdown: native runtimes (LibTorch, ONNX Runtime) may keep
    # threads that make jpype.shutdownJVM() slow or hang; everything is written.
    os._exit(status)


if __name__ == "__main__":
    main()
