"""Configure and build the C++ drivers (cpp/) into build/cpp/; --test also runs ctest.

LibTorch and libonnxruntime come from the wheels of the Python running this
script. build/cpp/deps/ holds stable symlinks to them, so that the compiler,
the linker and the binaries' RPATH see one fixed path whichever environment
(nox session, venv) built last, and switching environments does not force a
rebuild. A second run with nothing changed takes seconds (CMake + Ninja).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import _build
from _build import BuildError, point, run

REPO_ROOT = _build.REPO_ROOT
SOURCE = REPO_ROOT / "cpp"
BUILD = REPO_ROOT / "build" / "cpp"
DEPS = BUILD / "deps"

TOOLS = {
    "cmake": "CMake >= 3.25 (apt-get install cmake)",
    "ninja": "Ninja (apt-get install ninja-build)",
    "g++": "a C++20 compiler (apt-get install g++)",
}


def torch_site() -> tuple[Path, bool, bool]:
    """The site-packages holding torch, torch.compiled_with_cxx11_abi(), and whether torch
    sees a CUDA device."""
    try:
        import torch
    except ImportError:
        raise BuildError(f"torch is not installed in {sys.executable}") from None
    root = Path(torch.__file__).resolve().parent
    if not (root / "lib" / "libtorch_cpu.so").is_file():
        raise BuildError(f"{root}/lib has no libtorch_cpu.so: not a LibTorch-bearing torch wheel")
    return root.parent, bool(torch.compiled_with_cxx11_abi()), bool(torch.cuda.is_available())


def onnxruntime_library(site: Path) -> Path | None:
    """The wheel's libonnxruntime.so.<version>, through the deps/site-packages link if it can."""
    try:
        import onnxruntime
    except ImportError:
        print("build_cpp: onnxruntime not installed: ONNX Runtime drivers skipped", file=sys.stderr)
        return None
    capi = Path(onnxruntime.__file__).resolve().parent / "capi"
    libraries = sorted(capi.glob("libonnxruntime.so*"))
    if not libraries:
        print(f"build_cpp: no libonnxruntime.so* in {capi}: ONNX Runtime drivers skipped")
        return None
    library = libraries[-1]
    if library.is_relative_to(site):
        return DEPS / "site-packages" / library.relative_to(site)
    return library


def onnxruntime_headers() -> Path | None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import fetch_onnxruntime_headers as fetcher

    try:
        return fetcher.fetch(fetcher.installed_onnxruntime_version(), fetcher.DEFAULT_CACHE)
    except fetcher.FetchError as exc:
        print(f"build_cpp: warning: {exc}: ONNX Runtime drivers skipped", file=sys.stderr)
        return None


def lay_out_deps() -> tuple[bool, bool]:
    """Point build/cpp/deps at this Python's wheels; returns the CXX11 ABI flag and whether
    torch sees a CUDA device."""
    site, cxx11_abi, device = torch_site()
    point(DEPS / "site-packages", site)
    ort_dir = DEPS / "onnxruntime"
    library = onnxruntime_library(site)
    headers = onnxruntime_headers() if library else None
    # The wheel has only libonnxruntime.so.<version>; the binaries ask for
    # its SONAME (libonnxruntime.so.1) and the linker for libonnxruntime.so.
    links = {"lib/libonnxruntime.so.1": library, "lib/libonnxruntime.so": library}
    links["include"] = headers
    for name, target in links.items():
        if library and headers and target:
            point(ort_dir / name, target)
        else:
            (ort_dir / name).unlink(missing_ok=True)
    return cxx11_abi, device


def builds_cuda(asked: str, lint: bool, device: bool) -> bool:
    """CALLBENCH_CUDA: ``--cuda on``/``off`` as asked; ``auto``, where a CUDA device is (the
    rows could only say "no CUDA device" elsewhere) or for ``--lint`` (their code is
    compiled with -Wall -Wextra like the rest)."""
    return asked == "on" or (asked == "auto" and (device or lint))


def build(args: argparse.Namespace) -> str:
    _build.require(TOOLS)
    cxx11_abi, device = lay_out_deps()
    cuda = builds_cuda(args.cuda, args.lint, device)
    # Some targets alone (a GPU host's CUDA rows, the drivers a run chose): no unit tests,
    # which need GoogleTest. The unit tests are built only to be run (--test) or linted
    # (--lint): turning them off re-configures without rebuilding a driver.
    asked = [*args.target, *args.driver]
    tests = (args.test or args.lint) and not asked
    run(
        "cmake", "-S", SOURCE, "-B", BUILD, "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DCALLBENCH_DEPS={DEPS}",
        f"-DCALLBENCH_TORCH_CXX11_ABI={int(cxx11_abi)}",
        f"-DCALLBENCH_TESTS={'ON' if tests else 'OFF'}",
        f"-DCALLBENCH_CUDA={'ON' if cuda else 'OFF'}",
    )  # fmt: skip
    # A chosen driver CMake did not configure here (a CUDA row on a CPU host) has its
    # .skipped file, which the harness records; --target asks for it to be built.
    targets = [*args.target, *(d for d in args.driver if d in configured())]
    if asked and not targets:
        return "none of the chosen drivers is configured here (each .skipped says why)"
    flags = [a for t in targets for a in ("--target", t)]
    run("cmake", "--build", BUILD, "--parallel", str(args.jobs), *flags)
    if args.test:
        run("ctest", "--test-dir", BUILD, "--output-on-failure")
    return f"drivers in {BUILD / 'bin'}"


def configured() -> set[str]:
    """The targets the configured build has (Ninja's own list)."""
    listed = run("ninja", "-C", BUILD, "-t", "targets", "all", capture=True)
    return {line.split(":", 1)[0] for line in listed.splitlines()}


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", action="append", default=[],
                        help="build only this driver (repeatable), no unit tests")  # fmt: skip
    parser.add_argument("--driver", action="append", default=[],
                        help="build only this driver where it is configured (repeatable), "
                             "no unit tests")  # fmt: skip
    parser.add_argument("--cuda", choices=("auto", "on", "off"), default="auto",
                        help="build the CUDA rows (default: where torch sees a CUDA device, "
                             "and for --lint)")  # fmt: skip


if __name__ == "__main__":
    # --lint is the build itself (-Wall -Wextra in every compile); accepted so
    # `callbench build --lint` treats every language alike.
    sys.exit(
        _build.main(
            "build_cpp",
            __doc__,
            build,
            test_help="run the C++ unit tests (ctest) too",
            lint_help="the build itself",
            more_options=options,
        )
    )
