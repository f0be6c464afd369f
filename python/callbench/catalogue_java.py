"""Java drivers registered with the harness.

Each is a class in java/ (package ``dev.callbench.drivers``) with a
``main(String[])`` that follows the contract; the harness starts it as
``python -m callbench.jvm_host --main <class> [--native-lib-dir DIR] --``,
one JVM per driver process (drivers bring different LibTorch builds).
"""

from __future__ import annotations

import shutil
import sys
from functools import partial
from pathlib import Path

from callbench.catalogue import REPO_ROOT, DriverSpec
from callbench.jvm_host import BUILD_HINT, CLASSES, LIB

PACKAGE = "dev.callbench.drivers"
# libpytorch_jni.so and libfbjni.so, the native peer of pytorch_java_only.
PYTORCH_NATIVE_LIB = REPO_ROOT / "build" / "java-native" / "lib"


def class_file(main_class: str) -> Path:
    return CLASSES / (main_class.replace(".", "/") + ".class")


def host_command(main_class: str, native_lib_dir: Path | None = None) -> list[str]:
    """The JPype host running ``main_class``; the harness appends the contract options."""
    command = [sys.executable, "-m", "callbench.jvm_host", "--main", main_class]
    if native_lib_dir is not None:
        command += ["--native-lib-dir", str(native_lib_dir)]
    return [*command, "--"]


def availability(main_class: str, native_lib_dir: Path | None = None) -> str | None:
    """None when ``main_class`` is built and a JVM is there, else what to do about it."""
    if shutil.which("java") is None:
        return "no `java` on PATH: install a JDK >= 17 (apt-get install openjdk-17-jdk-headless)"
    if not class_file(main_class).is_file():
        return f"Java drivers not built ({class_file(main_class)} missing): {BUILD_HINT}"
    if not any(LIB.glob("*.jar")):
        return f"Java runtime jars missing ({LIB}): {BUILD_HINT}"
    if native_lib_dir is not None and not native_lib_dir.is_dir():
        return f"native libraries not built ({native_lib_dir} missing): {BUILD_HINT}"
    return None


def java_driver(
    driver_id: str,
    runtime: str,
    artifact: str,
    main_class: str,
    *,
    native_lib_dir: Path | None = None,
    seconds_per_million: float = 300.0,
) -> DriverSpec:
    """A DriverSpec for a JVM-hosted driver class (``native_lib_dir``: -Djava.library.path)."""
    return DriverSpec(
        id=driver_id,
        language="Java",
        runtime=runtime,
        artifact=artifact,
        command=partial(host_command, main_class, native_lib_dir),
        available=partial(availability, main_class, native_lib_dir),
        seconds_per_million=seconds_per_million,
    )


# seconds per million calls: a generous time limit, not a figure.
DRIVERS: list[DriverSpec] = [
    java_driver(
        "java-onnxruntime", "onnxruntime", "mlp.onnx", f"{PACKAGE}.OnnxRuntimeDriver",
        seconds_per_million=120.0,
    ),
    java_driver(
        "java-onnxruntime-reuse", "onnxruntime", "mlp.onnx", f"{PACKAGE}.OnnxRuntimeReuseDriver",
        seconds_per_million=120.0,
    ),
    java_driver("java-djl", "djl-pytorch", "mlp_torchscript.pt", f"{PACKAGE}.DjlDriver"),
    java_driver("java-djl-reuse", "djl-pytorch", "mlp_torchscript.pt", f"{PACKAGE}.DjlReuseDriver"),
    # org.pytorch (pytorch_java_only) on the project's JNI peer, built by
    # scripts/build_java_native.py (which scripts/build_java.py runs).
    java_driver(
        "java-pytorch", "libtorch", "mlp_torchscript.pt", f"{PACKAGE}.PytorchJavaDriver",
        native_lib_dir=PYTORCH_NATIVE_LIB,
    ),
    java_driver(
        "java-pytorch-reuse", "libtorch", "mlp_torchscript.pt", f"{PACKAGE}.PytorchJavaReuseDriver",
        native_lib_dir=PYTORCH_NATIVE_LIB,
    ),
]  # fmt: skip
