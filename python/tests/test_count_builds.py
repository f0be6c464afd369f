"""The AVX2 builds a count runs for rows compiled for this CPU (AOTInductor, torch.compile)."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from callbench.harness.count import builds as count_builds
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import exported_programs
from callbench.model.exported_programs import AOTI_PACKAGE

# An AVX-512 instruction names a zmm register or a mask register k1-k7.
AVX512 = re.compile(r"%zmm\d|\{%k[1-7]\}")


def spec(driver_id: str, runtime: str, artifact: str) -> DriverSpec:
    return DriverSpec(
        id=driver_id, language="C++", runtime=runtime, artifact=artifact, source=Path(__file__),
        command=lambda: ["true"],
    )  # fmt: skip


def test_a_torch_compile_row_is_counted_for_avx2_in_its_own_cache(tmp_path: Path) -> None:
    models = tmp_path / "models"
    builds = count_builds.builds_for(
        [spec("python-torch-compile", "torch.compile", art.STATE_DICT),
         spec("cpp-handwritten", "none", art.WEIGHTS)],
        models, tmp_path,
    )  # fmt: skip
    compiled, plain = builds["python-torch-compile"], builds["cpp-handwritten"]
    assert compiled.models == models and compiled.error is None
    assert compiled.env["ATEN_CPU_CAPABILITY"] == "avx2"
    assert compiled.env["TORCHINDUCTOR_CPP_MARCH"] == count_builds.AVX2_MARCH
    assert compiled.env["TORCHINDUCTOR_CACHE_DIR"].startswith(str(tmp_path))
    assert compiled.note is not None and "AVX2" in compiled.note
    assert plain == count_builds.Build(models)


def test_the_aoti_rows_share_one_avx2_package_that_the_manifest_then_checks(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[str | None, int | None]] = []

    def package_of(
        program: object, signature: object, march: str | None = None, simdlen: int | None = None
    ) -> bytes:
        made.append((march, simdlen))
        return b"an AVX2 package"

    monkeypatch.setattr(exported_programs, "package_of", package_of)
    monkeypatch.setattr(count_builds, "_program", lambda models: object())
    builds = count_builds.builds_for(
        [spec("cpp-aoti", "aotinductor", AOTI_PACKAGE),
         spec("cpp-aoti-reuse", "aotinductor", AOTI_PACKAGE)],
        small_models, tmp_path,
    )  # fmt: skip
    assert made == [(count_builds.AVX2_MARCH, 256)]
    rebuilt = builds["cpp-aoti"].models
    assert builds["cpp-aoti-reuse"].models == rebuilt != small_models
    assert builds["cpp-aoti"].note == count_builds.AOTI_BUILD
    assert (rebuilt / AOTI_PACKAGE).read_bytes() == b"an AVX2 package"
    art.verify(rebuilt, [AOTI_PACKAGE, art.ONNX])  # the new package and the linked files
    assert (rebuilt / art.ONNX).is_symlink()
    # The timed models are left as they were.
    art.verify(small_models, [AOTI_PACKAGE])


def test_an_avx2_build_that_fails_skips_its_rows_saying_why(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def package_of(program: object, signature: object, **avx2: object) -> bytes:
        raise RuntimeError("C++ compile error\nthe compiler's whole log")

    monkeypatch.setattr(exported_programs, "package_of", package_of)
    monkeypatch.setattr(count_builds, "_program", lambda models: object())
    build = count_builds.builds_for(
        [spec("cpp-aoti", "aotinductor", AOTI_PACKAGE)], small_models, tmp_path
    )["cpp-aoti"]
    assert build.error is not None
    assert build.error.endswith("C++ compile error") and AOTI_PACKAGE in build.error


def test_the_avx2_package_holds_no_avx512_instruction(small_models: Path, tmp_path: Path) -> None:
    # The real build: g++ on Inductor's code, as a count makes it (about a minute).
    if shutil.which("objdump") is None:
        pytest.skip("no objdump")
    rebuilt = count_builds.avx2_models(small_models, tmp_path / "avx2")
    with zipfile.ZipFile(rebuilt / AOTI_PACKAGE) as package:
        libraries = [n for n in package.namelist() if n.endswith(".so")]
        assert libraries
        package.extractall(tmp_path / "unzipped", members=libraries)
    for name in libraries:
        code = subprocess.run(
            ["objdump", "-d", str(tmp_path / "unzipped" / name)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert "vfmadd" in code or "vmulps" in code  # AVX code, vectorised
        assert AVX512.search(code) is None, AVX512.search(code)


IO_URING_SETUP = """
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(425, 0, None)  # io_uring_setup(0, NULL): x86-64's number
print(errno.errorcode[ctypes.get_errno()])
"""


def test_io_uring_is_turned_off_for_the_command_and_what_it_runs() -> None:
    import platform
    import sys

    from callbench.harness.count import no_io_uring

    if platform.machine() != "x86_64" or no_io_uring.unavailable() is not None:
        pytest.skip("x86-64 Linux with libseccomp only")
    # The filter is inherited across exec: the command here is a shell that runs Python.
    off = subprocess.run(
        [*count_builds.NO_IO_URING, "sh", "-c", 'exec "$0" -c "$1"', sys.executable,
         IO_URING_SETUP],
        capture_output=True, text=True,
    )  # fmt: skip
    assert off.stdout.strip() == "ENOSYS", off.stderr


def test_an_iree_row_is_counted_on_an_avx2_module_with_io_uring_off(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbench.model import iree_model

    made: list[tuple[str, ...]] = []

    def compile_onnx(onnx_path: Path, flags: tuple[str, ...] = ()) -> bytes:
        made.append(flags)
        return b"an AVX2 module"

    monkeypatch.setattr(iree_model, "compile_onnx", compile_onnx)
    build = count_builds.builds_for(
        [spec("python-iree", "iree", iree_model.VMFB)], small_models, tmp_path
    )["python-iree"]
    assert made == [(f"--iree-llvmcpu-target-cpu={count_builds.AVX2_MARCH}",)]
    assert build.prefix == count_builds.NO_IO_URING and build.error is None
    assert build.note == count_builds.IREE_BUILD and "io_uring" in build.note
    assert (build.models / iree_model.VMFB).read_bytes() == b"an AVX2 module"
    art.verify(build.models, [iree_model.VMFB])


def test_no_io_uring_without_a_command_says_how_to_call_it() -> None:
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "callbench.harness.count.no_io_uring"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stderr.startswith("usage:")


def test_a_go_row_runs_under_callgrind_from_its_start_with_preemption_signals_off(
    small_models: Path, tmp_path: Path
) -> None:
    """Counted from its first instruction (no --instr-atstart=no), where the timed build
    meets Go's preemption signal at once and callgrind panics, go-handwritten with its count
    build's environment runs its rounds to the end."""
    import os

    from callbench.harness.count import callgrind
    from callbench.registry import lookup

    driver = lookup("go-handwritten")
    build = count_builds.builds_for([driver], small_models, tmp_path)[driver.id]
    assert build.env == count_builds.GO_ENV and build.note == count_builds.GO_BUILD
    if callgrind.unavailable() or driver.available():
        pytest.skip("needs Valgrind and the Go build")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp_path}/out", "--quiet",
         *driver.command(), "--models", str(small_models), "--calls", "200", "--warmup", "10",
         "--outputs", str(tmp_path / "outputs.f32")],
        capture_output=True, text=True, timeout=300, env={**os.environ, **build.env},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"calls":200' in done.stdout


def test_rows_that_do_not_load_the_avx2_rebuild_start_while_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    made = threading.Event()

    def rebuilt(specs: object, models: Path, scratch: Path) -> tuple[Path, None]:
        assert made.wait(30)
        return scratch / "models-avx2", None

    monkeypatch.setattr(count_builds, "_rebuilt", rebuilt)
    rows = [spec("cpp-aoti", "aotinductor", AOTI_PACKAGE), spec("cpp-plain", "none", art.WEIGHTS)]
    builds = count_builds.Builds(rows, tmp_path / "models", tmp_path)
    assert builds.of(rows[1]) == count_builds.Build(tmp_path / "models")  # not waiting
    made.set()
    assert builds.of(rows[0]).models == tmp_path / "models-avx2"


def test_a_node_row_is_counted_with_v8s_seeds_and_collection_schedule_fixed(tmp_path: Path) -> None:
    from callbench.registry import lookup

    driver = lookup("node-onnxruntime-reuse")
    build = count_builds.builds_for([driver], tmp_path, tmp_path)[driver.id]
    assert build.runtime_flags == count_builds.NODE_FLAGS and build.note == count_builds.NODE_BUILD
    node, script = driver.command()
    assert build.program([node, script]) == [node, *count_builds.NODE_FLAGS, script]
    if shutil.which("node") is None:
        pytest.skip("no node")
    # V8 takes the option as given (an unknown one would stop node).
    done = subprocess.run(
        [node, *count_builds.NODE_FLAGS, "-e", "process.exit(0)"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
