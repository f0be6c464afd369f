"""A driver's loop sampled by py-spy (PyPI), native frames included: what cProfile cannot see.

py-spy starts the kit's host (``python -m callbench.driverkit.host``) itself and reads its
stacks from outside (ptrace / process_vm_readv), so it may be refused where
the process may not trace its children (a container without CAP_SYS_PTRACE,
``kernel.yama.ptrace_scope`` 3). Only samples taken inside the target's
``spin`` count: loading and warming up are left out.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from callbench.driver_options import Options
from callbench.languages.python import SPIN
from callbench.profile.frames import Frame, Profile, grouped
from callbench.profile.target import target_command

LOCATION = re.compile(r"^(?P<function>.*) \((?P<where>[^()]*)\)$")
ABI_TAG = re.compile(r"\.cpython-[^.]+")
LINE = re.compile(r":\d+$")
LOAD_TIMEOUT_S = 600  # loading, warming up and py-spy's own start, besides the sampling


class NativeProfilerError(Exception):
    """py-spy is missing or cannot run here: one line saying why."""


@dataclass(frozen=True)
class Sampling:
    seconds: float = 3.0
    rate: int = 250  # samples a second
    native: bool = True


def py_spy() -> Path:
    """The py-spy beside this interpreter (a venv's bin/), else on PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    found = beside if beside.is_file() else shutil.which("py-spy")
    if found is None:
        raise NativeProfilerError("py-spy is not installed (pip install py-spy)")
    return Path(found)


def record(driver_id: str, options: Options, sampling: Sampling, fmt: str, out: Path) -> None:
    """Run the target under ``py-spy record`` writing ``fmt`` (raw or flamegraph) to ``out``."""
    command = [str(py_spy()), "record", "--rate", str(sampling.rate), "--format", fmt,
               "--output", str(out)]  # fmt: skip
    if sampling.native:
        command.append("--native")
    command += ["--", *target_command(driver_id, options, sampling.seconds)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              timeout=LOAD_TIMEOUT_S + sampling.seconds)  # fmt: skip
    except subprocess.TimeoutExpired:
        raise NativeProfilerError(
            f"the profiled driver did not finish in time: {command}"
        ) from None
    if done.returncode != 0 or not out.is_file():
        lines = [ln for ln in done.stderr.splitlines() if ln.strip() and "py-spy>" not in ln]
        last = lines[-1] if lines else f"py-spy exited {done.returncode}"
        raise NativeProfilerError(last.strip())


def frame_key(frame: str) -> str:
    """A sampled frame without what splits one function into many rows.

    Frames lose their line (``f (path.py:12)`` -> ``f (path.py)``, the same
    for native frames with debug information); native frames without a symbol
    (a stripped library, JIT-compiled code) become one row per library.
    """
    match = LOCATION.match(frame)
    if match is None:
        return frame
    function, where = match.group("function"), match.group("where")
    if function.startswith("0x"):
        return f"(no symbol) ({where})"
    return f"{function} ({LINE.sub('', where)})"


def leaf_frames(raw: str) -> Profile:
    """py-spy's raw output (``root;...;leaf count`` a line) as self samples per leaf frame."""
    counts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not count.isdigit() or not any(f.startswith(f"{SPIN} (") for f in frames):
            continue
        counts[frame_key(frames[-1])] += int(count)
    frames_out = tuple(Frame(name, float(n), n) for name, n in counts.items())
    return Profile("py-spy", "samples", 0, frames_out)


def library(frame: Frame) -> str:
    """Where a frame's code lives: a shared library, or Python source by its top package."""
    match = LOCATION.match(frame.name)
    where = match.group("where") if match else frame.name
    if where.endswith(".py") or ".py:" in where or where.startswith("<"):
        return f"Python code in {where.split('/', 1)[0].split(':', 1)[0]}"
    if where == "?":
        return "native: no library (JIT-compiled or unmapped code)"
    return f"native: {ABI_TAG.sub('', LINE.sub('', where))}"


def by_library(profile: Profile) -> Profile:
    return grouped(profile, ((f, library(f)) for f in profile.frames))


def sample(driver_id: str, options: Options, sampling: Sampling) -> Profile:
    """Self samples per frame of the driver's loop, native frames included."""
    with tempfile.TemporaryDirectory(prefix="callbench-pyspy-") as scratch:
        out = Path(scratch) / "stacks.txt"
        record(driver_id, options, sampling, "raw", out)
        raw = out.read_text()
    profile = leaf_frames(raw)
    if profile.total == 0:
        raise NativeProfilerError("py-spy took no sample inside the driver's loop")
    return profile


def flame_graph(driver_id: str, options: Options, sampling: Sampling, path: Path) -> Path:
    """py-spy's own SVG flame graph of the target (loading included: it is one picture)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record(driver_id, options, sampling, "flamegraph", path)
    return path
