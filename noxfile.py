"""callbench sessions: export, bench-*, report, tests, lint.

Every session installs the same pinned project into its own uv environment.
torch (the multi-GB CUDA wheel) is downloaded once into uv's cache and then
linked into each environment, which takes about a second.
"""

from __future__ import annotations

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "uv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["tests"]

PYTHON = "3.11"
ALL_EXTRAS = ".[report,kernels,test,lint]"
# The sweeps take each runtime's fastest way of being called, one driver each.
SWEEP_DRIVERS = (
    "python-eager-inference", "python-torchscript-frozen", "python-onnxruntime-iobinding",
    "python-numpy", "cpp-libtorch-out", "cpp-torchscript-reuse", "cpp-onnxruntime-reuse",
    "cpp-handwritten", "java-onnxruntime-reuse", "java-djl", "java-pytorch-reuse",
)  # fmt: skip


def install(session: nox.Session) -> None:
    """The project, editable, with every extra: one identical set everywhere."""
    session.install("-e", ALL_EXTRAS)


def build_cpp(session: nox.Session, *extra: str) -> None:
    """Configure and build cpp/ (CMake, Release, incremental); --test also runs ctest."""
    session.run("python", "scripts/build_cpp.py", *extra)


def build_java(session: nox.Session, *extra: str) -> None:
    """Build java/ with Maven (and the JNI native peer); --test also runs Surefire."""
    session.run("python", "scripts/build_java.py", *extra)


def harness(session: nox.Session, *languages: str, run_dir: str | None = None) -> None:
    """Run the harness on the drivers of ``languages``, passing options through."""
    args = ["python", "-m", "callbench.harness"]
    for language in languages:
        args += ["--language", language]
    if run_dir:
        args += ["--run-dir", run_dir]
    session.run(*args, *session.posargs)


def new_run_dir(session: nox.Session) -> str:
    """One run folder for everything a `bench` measures."""
    code = "from callbench.records import new_run_dir; print(new_run_dir())"
    out = session.run("python", "-c", code, silent=True)
    assert isinstance(out, str)
    return out.strip().splitlines()[-1]


@nox.session(python=PYTHON)
def export(session: nox.Session) -> None:
    """Train the reference MLP and write models/ (weights, TorchScript, ONNX, data)."""
    install(session)
    session.run("python", "-m", "callbench.export", *session.posargs)


@nox.session(name="bench-python", python=PYTHON)
def bench_python(session: nox.Session) -> None:
    """Run the Python drivers (options pass through: -- --calls 10000 --only python-eager)."""
    install(session)
    harness(session, "python")


@nox.session(name="bench-cpp", python=PYTHON)
def bench_cpp(session: nox.Session) -> None:
    """Build the C++ drivers (CMake, Release) and run them."""
    install(session)
    build_cpp(session)
    harness(session, "cpp")


@nox.session(name="bench-java", python=PYTHON)
def bench_java(session: nox.Session) -> None:
    """Build the Java drivers (Maven) and run them in JVMs hosted through JPype."""
    install(session)
    build_java(session)
    harness(session, "java")


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Every language's drivers as one run, then the report."""
    install(session)
    build_cpp(session)
    build_java(session)
    run_dir = new_run_dir(session)
    harness(session, "python", "cpp", "java", run_dir=run_dir)
    sweep = ["python", "-m", "callbench.harness", "--run-dir", run_dir, "--calls", "100000"]
    for driver in SWEEP_DRIVERS:
        sweep += ["--only", driver]
    session.run(*sweep, "--sweep", "batch")
    session.run(*sweep, "--sweep", "threads", "--batch", "1000", "--calls", "1000")
    session.run("python", "-m", "callbench.kernels", "--run-dir", run_dir)
    session.run("python", "-m", "callbench.report", run_dir)


@nox.session(name="bench-kernels", python=PYTHON)
def bench_kernels(session: nox.Session) -> None:
    """The seeds' micro-benchmarks (elementwise math, batched dot); --quick for a small size."""
    install(session)
    session.run("python", "-m", "callbench.kernels", *session.posargs)


@nox.session(python=PYTHON)
def report(session: nox.Session) -> None:
    """Write results/report.md and charts from the newest run (or the runs named)."""
    install(session)
    session.run("python", "-m", "callbench.report", *session.posargs)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit and end-to-end tests of every language (no test asserts a time)."""
    install(session)
    build_cpp(session, "--test")
    build_java(session, "--test")
    session.run("python", "-m", "pytest", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff and mypy, both clean."""
    install(session)
    session.run("ruff", "check", "python", "noxfile.py", "scripts")
    session.run("ruff", "format", "--check", "python", "noxfile.py", "scripts")
    session.run("mypy")
