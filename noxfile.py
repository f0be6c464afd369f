"""callbench sessions: each one line over the `callbench` command.

Every session installs the same pinned project into its own uv environment;
torch (the multi-GB CUDA wheel) is downloaded once into uv's cache and then
linked into each environment in about a second. Options after `--` reach the
command, e.g. `nox -s bench -- --quick`.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "uv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["tests"]

PYTHON = "3.11"
ALL_EXTRAS = ".[report,kernels,test,lint]"
# Every transitive dependency pinned (uv pip compile pyproject.toml --all-extras).
LOCK = "requirements.lock"
# One run id for every bench session of one nox invocation, so that
# `nox -s bench-cpp bench-java bench-python` writes one run and the report shows it all.
RUN_ID = os.environ.setdefault(
    "CALLBENCH_RUN_ID",
    "-".join((
        time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()),
        "".join(c if c.isalnum() or c == "-" else "-" for c in socket.gethostname().lower())[:40],
        secrets.token_hex(3),
    )),
)  # fmt: skip


# When the last callbench command ended, first when nox began (it reads this file first):
# nox makes a session's environment between then and the session's function starting.
SINCE = [time.monotonic()]


def install(session: nox.Session) -> None:
    """The project, editable, every extra, every version from the lock file; the seconds
    spent making the environment and installing go to callbench (its record's venv phase)."""
    session.install("-c", LOCK, "-e", ALL_EXTRAS)
    session.env["CALLBENCH_VENV_SECONDS"] = f"{time.monotonic() - SINCE[0]:.3f}"


def callbench(session: nox.Session, *args: str) -> None:
    """Install the project and run `callbench ARGS posargs`."""
    install(session)
    try:
        session.run("callbench", *args, *session.posargs)
    finally:
        SINCE[0] = time.monotonic()


@nox.session(python=PYTHON)
def export(session: nox.Session) -> None:
    """Train the reference MLP and write models/ (weights, TorchScript, ONNX, data)."""
    callbench(session, "export")


def bench_language(language: str) -> None:
    @nox.session(name=f"bench-{language}", python=PYTHON)
    def session_(session: nox.Session) -> None:
        callbench(session, "run", "--build", "--language", language, "--run-id", RUN_ID)

    session_.__doc__ = f"Build the {language} drivers and run them into this invocation's run."


for _language in ("python", "cpp", "java", "rust", "go", "node"):
    bench_language(_language)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Export if needed, build, every driver, the sweeps, the kernels, the report (one run)."""
    callbench(session, "bench", "--run-id", RUN_ID)


@nox.session(name="bench-widths", python=PYTHON)
def bench_widths(session: nox.Session) -> None:
    """The model-size sweep (each runtime's fastest driver at every exported width), then the
    report: `nox -s bench bench-widths` adds it to the bench's run (about 4 minutes more)."""
    callbench(session, "run", "--swept", "--widths", "all", "--run-id", RUN_ID)
    session.run("callbench", "report", RUN_ID)


@nox.session(python=PYTHON)
def count(session: nox.Session) -> None:
    """Instructions per call under callgrind, into this invocation's run or else the newest."""
    # `nox -s bench count` counts into the run bench just made; `nox -s count`, this host's newest.
    made = (Path("results") / "runs" / RUN_ID).is_dir()
    callbench(session, "count", "--build", *(["--run-id", RUN_ID] if made else []))


@nox.session(name="bench-kernels", python=PYTHON)
def bench_kernels(session: nox.Session) -> None:
    """The seeds' micro-benchmarks (elementwise math, batched dot); --quick for a small size."""
    install(session)
    session.run("callbench", "kernels", *session.posargs)


@nox.session(python=PYTHON)
def report(session: nox.Session) -> None:
    """Write results/latest/report.md and charts from the newest run (or the runs named);
    `-- --publish RUN ...` writes the project's committed results/report.md instead."""
    callbench(session, "report")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Every language's build and unit tests, then the end-to-end tests (no test asserts a time)."""
    install(session)
    session.run("callbench", "build", "--test")
    # Two workers: most of the suite waits on driver processes starting.
    session.run("python", "-m", "pytest", "-n", "2", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff and mypy; each language's own linters (clippy, rustfmt, go vet, gofmt)."""
    install(session)
    session.run("ruff", "check", "python", "noxfile.py", "scripts", "java/src/test/python")
    session.run("ruff", "format", "--check", "python", "noxfile.py", "scripts")
    session.run("mypy")
    session.run("callbench", "build", "--lint")
