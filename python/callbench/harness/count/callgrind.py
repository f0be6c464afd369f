"""Valgrind's callgrind, driven from outside: the command prefix, the toggles, the dumps.

A driver runs under ``valgrind --tool=callgrind --instr-atstart=no``, so its
load and warm-up run uncounted. vgdb sends callgrind's monitor commands: the
instrumentation on before one round, off after it, and a dump of the counters; each
dump zeroes them, so a dump's ``totals:`` line is what was counted since the
one before.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

TOOLS = ("valgrind", "vgdb")
# vgdb waits on the driver's gdbserver; a stuck one must not hang the count.
CONTROL_LIMIT = 60.0
# callgrind_control asked vgdb for every Valgrind process (vgdb -l) before each request:
# 0.23-0.25 s a request, three a round. vgdb alone takes 0.21 s (it wakes a driver waiting
# in a read after its default 100 ms), and the instrumentation's off and the dump go in
# one request: two a round for a JIT row, one for the others, whose instrumentation stays
# on between rounds (count_rounds). (Woken after 1 ms, a request took 0.1 s, but one of two Node
# counts then never answered its first `instrumentation on`.)
# Valgrind emulates x86 up to AVX2: runtimes that choose kernels by CPU feature
# (ONNX Runtime's MLAS, oneDNN, XNNPACK, ...) take their AVX2 paths under it.
VALGRIND_ISA = "AVX2 at most (Valgrind emulates no AVX-512)"


class CallgrindError(Exception):
    """vgdb could not reach the driver, callgrind refused a command, or a dump could not
    be read."""


def unavailable() -> str | None:
    """Why counting cannot run here, or None when it can."""
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        return (
            f"{' and '.join(missing)} not on PATH: counting needs Valgrind "
            "(sudo apt-get install valgrind; ./nox installs it when run as root)"
        )
    return None


@cache
def version() -> str | None:
    try:
        done = subprocess.run(
            ["valgrind", "--version"], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def host_isa() -> str:
    """The vector extensions this CPU has, beside what Valgrind lets a driver use."""
    try:
        flags = next(
            (ln.split(":", 1)[1].split() for ln in Path("/proc/cpuinfo").read_text().splitlines()
             if ln.startswith("flags")),
            [],
        )  # fmt: skip
    except OSError:
        flags = []
    wide = sorted(f for f in set(flags) if f in ("avx2", "avx512f", "avx512_vnni", "avx512bw"))
    return f"{VALGRIND_ISA}; host CPU: {' '.join(wide) or 'no AVX2'}"


# A JVM resumes after the SIGSEGVs it provokes (implicit null checks, safepoint polls)
# with the registers the fault left. Valgrind by default keeps only the stack and
# instruction pointers exact at a memory access, so a resumed C2 method read a stale
# register: a null receiver at its entry, and the JVM died (SIGSEGV at a C2 method's entry
# + 0x20 in java-pytorch 2 loads of 4, every DJL load). With every register exact there,
# none did (4 of 4, and DJL 2 of 2). Valgrind translates more slowly; the guest
# instructions, the count, are the same.
PRECISE_REGISTERS = "--vex-iropt-register-updates=allregs-at-mem-access"


def prefix(
    out_file: Path, cache_sim: bool, threads_apart: bool = False, precise: bool = False
) -> list[str]:
    """The command a driver's own command line is appended to. ``threads_apart``: each
    thread counted on its own (a dump per thread), so a JIT's compiler and collector threads
    stay out of the calling thread's figure. ``precise``: every register exact at a memory
    access, for a program that resumes after a fault (a JVM)."""
    return [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}",
        f"--cache-sim={'yes' if cache_sim else 'no'}", "--quiet",
        *(["--separate-threads=yes"] if threads_apart else []),
        *([PRECISE_REGISTERS] if precise else []),
    ]  # fmt: skip


def control(pid: int, *commands: str) -> None:
    """Callgrind's monitor ``commands``, in order, to the driver ``pid`` in one vgdb request
    (CallgrindError if vgdb cannot reach it or callgrind refuses one)."""
    said = " and ".join(f"`{c}`" for c in commands)
    try:
        done = subprocess.run(
            ["vgdb", f"--pid={pid}", *(a for c in commands for a in ("-c", c))],
            capture_output=True, text=True, timeout=CONTROL_LIMIT, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise CallgrindError(f"vgdb {said} got no answer") from None
    # vgdb exits 0 when callgrind refuses a command: its answer says so.
    if done.returncode != 0 or "not recognised" in done.stdout:
        lines = (done.stdout + done.stderr).strip().splitlines()
        reason = next((line for line in lines if "error" in line or "not recognised" in line),
                      lines[-1] if lines else f"exit {done.returncode}")  # fmt: skip
        raise CallgrindError(f"vgdb {said} failed: {reason}")


STOP_AND_DUMP = ("instrumentation off", "dump")


def instrument(pid: int) -> None:
    """The instrumentation on: what runs from now is counted."""
    control(pid, "instrumentation on")


def dump(
    pid: int, out_file: Path, number: int, keep_on: bool = False
) -> tuple[list[str], list[int]]:
    """The instrumentation off (unless ``keep_on``) and the counters dumped (which zeroes
    them): dump ``number``'s events and totals."""
    control(pid, *(("dump",) if keep_on else STOP_AND_DUMP))
    return read_totals(Path(f"{out_file}.{number}"))


def dump_threads(pid: int, out_file: Path, number: int) -> tuple[list[str], dict[int, list[int]]]:
    """The instrumentation off and the counters of a driver counted with its threads apart
    dumped: the events, and each thread's totals (by Valgrind's thread number) in dump
    ``number``."""
    control(pid, *STOP_AND_DUMP)
    found = sorted(out_file.parent.glob(f"{out_file.name}.{number}-*"))
    if not found:
        raise CallgrindError(f"{out_file}.{number}-*: no per-thread dump")
    names: list[str] = []
    per_thread: dict[int, list[int]] = {}
    for path in found:
        names, counts = read_totals(path)
        thread = re.search(r"^thread:\s*(\d+)", path.read_text(errors="replace"), re.MULTILINE)
        per_thread[int(thread.group(1)) if thread else int(path.name.rsplit("-", 1)[1])] = counts
    return names, per_thread


def busiest(names: list[str], per_thread: dict[int, list[int]]) -> tuple[int, list[int]]:
    """The thread that ran the round: the one that executed the most instructions in it."""
    at = names.index("Ir") if "Ir" in names else 0
    thread = max(per_thread, key=lambda t: per_thread[t][at])
    return thread, per_thread[thread]


def read_totals(path: Path) -> tuple[list[str], list[int]]:
    """The ``events:`` names and the ``totals:`` counts of one callgrind dump."""
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise CallgrindError(f"{path}: cannot read the dump: {exc.strerror or exc}") from None
    events = re.search(r"^events:\s*(.+)$", text, re.MULTILINE)
    totals = re.search(r"^totals:\s*(.+)$", text, re.MULTILINE)
    if events is None or totals is None:
        raise CallgrindError(f"{path}: no events/totals lines in the dump")
    names = events.group(1).split()
    counts = [int(v) for v in totals.group(1).split()]
    # Trailing zero counts may be left out of a totals line.
    counts += [0] * (len(names) - len(counts))
    return names, counts
