"""Java drivers: classes in java/ (package dev.callbench.drivers), each run in a JVM
hosted by ``python -m callbench.languages.jvm_host``, one JVM per driver process
(drivers bring different LibTorch builds)."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from callbench.languages import cpp
from callbench.languages.jvm_host import BUILD_HINT, CLASSES, LIB
from callbench.languages.spec import DriverSpec, built_by
from callbench.paths import BUILD, REPO_ROOT

LANGUAGE = "Java"
PACKAGE = "dev.callbench.drivers"
SOURCES = REPO_ROOT / "java" / "src" / "main" / "java"
# libpytorch_jni.so and libfbjni.so: the project's native peer of pytorch_java_only.
PYTORCH_NATIVE_LIB = BUILD / "java-native" / "lib"
TOOLS_TO_INSTALL = "a JDK >= 17 and Maven (apt-get install openjdk-17-jdk-headless maven)"


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


def declared_problem(spec: DriverSpec, read: Callable[[Path], str] = Path.read_text) -> str | None:
    """Where a Java driver's class disagrees with its registry line on its id or artifact.

    The class passes its id to its family's constructor, and the family's
    ``artifact()`` names the file it opens; both must be the registry's.
    """
    text = read(spec.source)
    if f'super("{spec.id}",' not in text:
        return f'{spec.source}: does not declare its id as super("{spec.id}", ...)'
    family = re.search(r"\bextends\s+(\w+)", text)
    where = spec.source.with_name(f"{family.group(1)}.java") if family else spec.source
    returned = re.search(r"String artifact\(\)\s*\{\s*return\s+([^;]+);", read(where))
    value = returned.group(1).strip() if returned else ""
    constant = re.fullmatch(r"(\w+)\.(\w+)", value)
    if constant:  # a constant of another class: Models.ARTIFACT
        holder = where.with_name(f"{constant.group(1)}.java")
        found = re.search(rf"\b{constant.group(2)}\s*=\s*(\"[^\"]*\")", read(holder))
        value = found.group(1) if found else ""
    if value != f'"{spec.artifact}"':
        return f"{where}: artifact() does not return {spec.artifact}, the registry's"
    return None
