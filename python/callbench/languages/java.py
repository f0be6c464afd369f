"""Java drivers: classes in java/ (package dev.callbench.drivers), each run in a JVM
hosted by ``python -m callbench.languages.jvm_host``, one JVM per driver process
(drivers bring different LibTorch builds)."""

from __future__ import annotations

import os
import platform
import re
import shutil
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from callbench.languages import cpp, jdk
from callbench.languages.jvm_host import BUILD_HINT, CLASSES, JAVA_TARGET, LIB
from callbench.languages.spec import DriverSpec, built_by
from callbench.paths import BUILD, REPO_ROOT

LANGUAGE = "Java"
PACKAGE = "dev.callbench.drivers"
SOURCES = REPO_ROOT / "java" / "src" / "main" / "java"
# libpytorch_jni.so and libfbjni.so: the project's native peer of pytorch_java_only.
PYTORCH_NATIVE_LIB = BUILD / "java-native" / "lib"
TOOLS_TO_INSTALL = "a JDK >= 17 and Maven (apt-get install openjdk-17-jdk-headless maven)"
# Drivers that need a newer JDK than the kit's 17 (the FFM API): their sources,
# compiled by scripts/build_java.py with that JDK against the kit's classes.
FFM_SOURCES = REPO_ROOT / "java" / "ffm" / "src" / "main" / "java"
FFM_CLASSES = JAVA_TARGET / "ffm-classes"
# The library inside the onnxruntime jar for this machine (the jar ships
# linux-x64 and linux-aarch64), taken out at build time, so that the FFM row
# calls the very engine the JNI rows load.
_JAR_ARCH = {"x86_64": "x64", "amd64": "x64"}.get(platform.machine().lower(), platform.machine())
FFM_LIBRARY_IN_JAR = f"ai/onnxruntime/native/linux-{_JAR_ARCH}/libonnxruntime.so"
FFM_LIBRARY = JAVA_TARGET / "ffm" / "libonnxruntime.so"
# Not a program on PATH: the name built_by reports when no JDK >= 22 is found.
FFM_JAVAC = f"javac>={jdk.FFM_RELEASE}"


def class_file(main_class: str) -> Path:
    return CLASSES / (main_class.replace(".", "/") + ".class")


def host_command(main_class: str, native_lib_dir: Path | None) -> list[str]:
    command = [sys.executable, "-m", "callbench.languages.jvm_host", "--main", main_class]
    if native_lib_dir is not None:
        command += ["--native-lib-dir", str(native_lib_dir)]
    return [*command, "--"]


def availability(main_class: str, native_lib_dir: Path | None) -> str | None:
    if shutil.which("java") is None:
        return "no `java` on PATH: install a JDK >= 17 (apt-get install openjdk-17-jdk-headless)"
    if not class_file(main_class).is_file():
        return f"Java drivers not built ({class_file(main_class)} missing): {BUILD_HINT}"
    if not any(LIB.glob("*.jar")):
        return f"Java runtime jars missing ({LIB}): {BUILD_HINT}"
    if native_lib_dir is not None and not native_lib_dir.is_dir():
        return f"native libraries not built ({native_lib_dir} missing): {BUILD_HINT}"
    return None


def driver(
    driver_id: str, runtime: str, artifact: str, class_name: str, *, native: bool = False
) -> DriverSpec:
    """``class_name`` under dev.callbench.drivers; ``native``: needs the org.pytorch JNI peer."""
    main_class = f"{PACKAGE}.{class_name}"
    lib_dir = PYTORCH_NATIVE_LIB if native else None
    spec = DriverSpec(
        id=driver_id,
        language=LANGUAGE,
        runtime=runtime,
        artifact=artifact,
        source=SOURCES / (main_class.replace(".", "/") + ".java"),
        command=partial(host_command, main_class, lib_dir),
        available=partial(availability, main_class, lib_dir),
    )
    if not native:
        return built_by(spec, ("javac", "mvn"), TOOLS_TO_INSTALL)
    # The org.pytorch peer is compiled as the C++ drivers are (scripts/build_java.py).
    return built_by(
        spec, ("javac", "mvn", *cpp.TOOLCHAIN), f"{TOOLS_TO_INSTALL}, and {cpp.INSTALL}"
    )


# The kit's own libraries (JSON, options): the FFM driver's JVM needs them too,
# and none of the runtimes' jars.
KIT_JARS = ("gson-*.jar", "picocli-*.jar")


def ffm_command(main_class: str) -> list[str]:
    home = jdk.ffm_home()
    java_exe = str(home / "bin" / "java") if home else "java"
    kit_jars = [jar for pattern in KIT_JARS for jar in sorted(LIB.glob(pattern))]
    classpath = os.pathsep.join(map(str, (CLASSES, FFM_CLASSES, *kit_jars)))
    return [java_exe, "--enable-native-access=ALL-UNNAMED",
            f"-Dcallbench.onnxruntime.library={FFM_LIBRARY}",
            "-cp", classpath, main_class]  # fmt: skip


def ffm_availability(main_class: str) -> str | None:
    if jdk.ffm_home() is None:
        return f"no JDK >= {jdk.FFM_RELEASE} found: install {jdk.INSTALL}"
    driver_class = FFM_CLASSES / class_file(main_class).relative_to(CLASSES)
    for needed in (class_file("dev.callbench.DriverMain"), driver_class, FFM_LIBRARY):
        if not needed.is_file():
            return f"Java FFM driver not built ({needed} missing): {BUILD_HINT}"
    return None


def ffm_driver(driver_id: str, runtime: str, artifact: str, class_name: str) -> DriverSpec:
    """``class_name`` under java/ffm (dev.callbench.drivers), run in its own JVM of a
    JDK >= 22 with native access allowed, not hosted by JPype (whose JDK is 17)."""
    main_class = f"{PACKAGE}.{class_name}"
    spec = DriverSpec(
        id=driver_id,
        language=LANGUAGE,
        runtime=runtime,
        artifact=artifact,
        source=FFM_SOURCES / (main_class.replace(".", "/") + ".java"),
        command=partial(ffm_command, main_class),
        available=partial(ffm_availability, main_class),
    )
    home = jdk.ffm_home()
    javac = str(home / "bin" / "javac") if home else FFM_JAVAC
    return built_by(spec, (javac, "mvn"), jdk.INSTALL)


def declared_problem(spec: DriverSpec, read: Callable[[Path], str] = Path.read_text) -> str | None:
    """Where a Java driver's class disagrees with its registry line on its id or artifact.

    The class passes its id to its family's constructor (or, with no family,
    returns it from ``id()``), and the nearest class up its ``extends`` chain that has
    ``artifact()`` names the file it opens; both must be the registry's.
    """
    text = read(spec.source)
    declared = re.search(r'String id\(\)\s*\{\s*return\s+"([^"]*)";', text)
    if f'super("{spec.id}",' not in text and (declared is None or declared.group(1) != spec.id):
        return f'{spec.source}: does not declare its id as super("{spec.id}", ...)'
    # The family that says artifact(): the class's, or the nearest up its extends chain
    # (a twin extends the driver whose call it keeps).
    where, returned = spec.source, None
    for _ in range(4):
        returned = re.search(r"String artifact\(\)\s*\{\s*return\s+([^;]+);", read(where))
        family = re.search(r"\bextends\s+(\w+)", read(where))
        if returned is not None or family is None:
            break
        where = where.with_name(f"{family.group(1)}.java")
    value = returned.group(1).strip() if returned else ""
    constant = re.fullmatch(r"(\w+)\.(\w+)", value)
    if constant:  # a constant of another class: Models.ARTIFACT
        holder = where.with_name(f"{constant.group(1)}.java")
        found = re.search(rf"\b{constant.group(2)}\s*=\s*(\"[^\"]*\")", read(holder))
        value = found.group(1) if found else ""
    if value != f'"{spec.artifact}"':
        return f"{where}: artifact() does not return {spec.artifact}, the registry's"
    return None
