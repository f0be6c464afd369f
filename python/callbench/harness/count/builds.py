"""What a count runs where the timed row cannot run under Valgrind as it is.

- AOTInductor's package and torch.compile's kernels are compiled by g++ with
  ``-march=native`` and Inductor's widest vector ISA: on an AVX-512 host they hold
  AVX-512 instructions, which Valgrind does not emulate (the driver dies of SIGILL).
  Such rows are counted on a build made at count time for AVX2 (``-march=x86-64-v3``,
  ``ATEN_CPU_CAPABILITY=avx2``): the same graph, compiler and options, 256-bit vectors.
- IREE's runtime deadlocks under Valgrind on io_uring (``no_io_uring``): it is counted
  with io_uring turned off, on its POSIX backend.
- A Go program's asynchronous preemption signal panics callgrind: Go rows are counted
  with it off (cooperative preemption only).
- V8 seeds its hashes per process, which moved a Node.js row's count by 2%: Node.js rows
  are counted with the seed fixed.

The record's ``count.build`` says which; the figure is that build's work.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callbench.errors import first_line
from callbench.harness import console
from callbench.harness.count import no_io_uring
from callbench.languages import go, node
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model.exported_programs import AOTI_PACKAGE
from callbench.model.iree_model import VMFB

# What Valgrind 3.19 runs: AVX2, FMA, F16C, BMI1/2, no AVX-512.
AVX2_MARCH = "x86-64-v3"
AVX2_BITS = 256
# A torch.compile driver's Inductor vector ISA (ATen's own kernels already pick AVX2 under
# Valgrind, by CPUID) and g++'s target; the AOTInductor rebuild sets the same two through
# its options (cpp.simdlen, cpp.march).
AVX2_ENV = {"ATEN_CPU_CAPABILITY": "avx2", "TORCHINDUCTOR_CPP_MARCH": AVX2_MARCH}
JIT_COMPILED = frozenset({"torch.compile"})
AOTI_BUILD = (
    f"an AVX2 build made at count time: {AOTI_PACKAGE} compiled again by AOTInductor with "
    f"-march={AVX2_MARCH} and Inductor's AVX2 kernels (the timed rows ran the -march=native "
    "package, which holds AVX-512 that Valgrind cannot run)"
)
COMPILE_BUILD = (
    f"an AVX2 build made at count time: Inductor compiled the kernels with -march={AVX2_MARCH} "
    "and its AVX2 vector ISA, into a fresh cache (the timed rows compile for this CPU, "
    "AVX-512 included, which Valgrind cannot run)"
)

# IREE's runtime deadlocks under Valgrind 3.19 (see no_io_uring): counted with io_uring off.
WITHOUT_IO_URING = frozenset({"iree"})
NO_IO_URING = (sys.executable, "-m", "callbench.harness.count.no_io_uring")
IREE_DEADLOCK = (
    "IREE's runtime stops under Valgrind: its proactor thread waits in io_uring_enter, which "
    "Valgrind 3.19 does not treat as blocking, so every thread waits on that one"
)
IREE_BUILD = (
    f"an AVX2 build made at count time: {VMFB} compiled again from {art.ONNX} with "
    f"--iree-llvmcpu-target-cpu={AVX2_MARCH} (the timed rows ran the module compiled for "
    "this CPU, AVX-512 included, which Valgrind cannot run), and run with io_uring turned "
    "off (io_uring_setup answers ENOSYS through a seccomp filter), so that IREE uses its "
    f"POSIX backend: {IREE_DEADLOCK}; the call runs inline on the calling thread "
    "(local-sync) either way"
)
# Go's runtime preempts a goroutine running over 10 ms with a signal (SIGURG); callgrind 3.19
# panics on its return (threads.c:247, vgCallgrind_post_signal: Assertion 'sigNum ==
# vgCallgrind_current_state.sig' failed) at whatever moment one lands, so a Go row's count
# failed by chance, more often on a loaded machine. Without it a goroutine is preempted
# only at a function's entry, and the driver's own code is the same.
GO_ENV = {"GODEBUG": "asyncpreemptoff=1"}
GO_BUILD = (
    "the timed build, run with GODEBUG=asyncpreemptoff=1: Go's preemption signal (SIGURG) "
    "panics callgrind 3.19 (Assertion 'sigNum == vgCallgrind_current_state.sig' failed)"
)

# V8 hashes strings and dictionary keys with a seed drawn per process: node-onnxruntime-reuse's
# string-table probes (StringTable::FindEntry, 842 and 800 instructions a call) and
# property lookups (LookupInRegularHolder, 1,300 and 1,127) differed between two processes.
# With that seed fixed, a process still drew its level: full count runs
# 20261129T0316Z-count-issue67-16/-17/-18 gave node-onnxruntime-reuse 76,246 / 77,782 /
# 77,763 and node-onnxruntime-web 104,114 / 104,076 / 106,861, each process's rounds within
# 0.5%. V8 sizes its heap from the collection speeds it measures by the clock, so under
# Valgrind, beside another row, the collections' schedule (and their work on the calling
# thread) can follow the machine's load; --predictable-gc-schedule fixes the heap's growing
# and idle and memory-reducing steps, --random-seed=1 V8's other draws (its heap's
# addresses). Runs 20261129T0552Z-count-issue67-19/-20/-21 then gave -reuse 75,838 / 75,820 /
# 75,737 and -web 102,953 / 103,028 / 102,904. The JIT's code is the same; the count is one
# schedule's program (about 2% under the clock's), as each timed process is one schedule's.
NODE_FLAGS = ("--hash-seed=1", "--random-seed=1", "--predictable-gc-schedule")
NODE_BUILD = (
    "the timed program, with V8's seeds and collection schedule fixed (node --hash-seed=1 "
    "--random-seed=1 --predictable-gc-schedule): V8 draws its seeds per process and sizes its "
    "heap by the clock, and the count moved by up to 2.7% from process to process"
)

# The artifacts compiled for this CPU that a count compiles again for AVX2.
REBUILT = {AOTI_PACKAGE: AOTI_BUILD, VMFB: IREE_BUILD}


@dataclass(frozen=True)
class Build:
    """What one row's count runs: its models folder, the variables added to its
    environment, and what the record's ``count.build`` says (None: the timed build).
    ``error``: why the build could not be made (the row is skipped with it)."""

    models: Path
    env: dict[str, str] = field(default_factory=dict)
    note: str | None = None
    error: str | None = None
    # A program the count's command runs under (what it then executes is Valgrind).
    prefix: tuple[str, ...] = ()
    # Options given to the driver's runtime program (the first word of its command).
    runtime_flags: tuple[str, ...] = ()

    def program(self, command: Sequence[str]) -> list[str]:
        """The driver's ``command`` with the runtime's options after its first word."""
        return [*command[:1], *self.runtime_flags, *command[1:]]


class Builds:
    """Each row's build. The AVX2 rebuild is made in the background, so the rows that do not
    load it start at once; a row that does waits for it (it took about 30 s before any row
    started, in full count runs)."""

    def __init__(self, specs: Sequence[DriverSpec], models: Path, scratch: Path) -> None:
        self.models, self.scratch = models, scratch
        background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="avx2-rebuild")
        self._rebuilt = background.submit(_rebuilt, specs, models, scratch)
        background.shutdown(wait=False)

    def of(self, spec: DriverSpec) -> Build:
        """``spec``'s build: the timed one, or one made under ``scratch`` (each artifact
        compiled again once, for all the rows that load it)."""
        models = self.models
        prefix = NO_IO_URING if spec.runtime in WITHOUT_IO_URING else ()
        why = no_io_uring.unavailable() if prefix else None
        if spec.artifact in REBUILT:
            rebuilt, error = self._rebuilt.result()
            return Build(
                rebuilt, note=REBUILT[spec.artifact], prefix=prefix,
                error=error or (None if why is None else f"{IREE_DEADLOCK}, and {why}"),
            )  # fmt: skip
        if spec.runtime in JIT_COMPILED:
            env = {**AVX2_ENV, "TORCHINDUCTOR_CACHE_DIR": str(self.scratch / f"inductor-{spec.id}")}
            return Build(models, env, COMPILE_BUILD)
        if spec.language == go.LANGUAGE:
            return Build(models, GO_ENV, GO_BUILD)
        if spec.language == node.LANGUAGE:
            return Build(models, note=NODE_BUILD, runtime_flags=NODE_FLAGS)
        return Build(models)


def builds_for(specs: Sequence[DriverSpec], models: Path, scratch: Path) -> dict[str, Build]:
    """Each row's build, by driver id, once every one is made."""
    builds = Builds(specs, models, scratch)
    return {spec.id: builds.of(spec) for spec in specs}


def _rebuilt(specs: Sequence[DriverSpec], models: Path, scratch: Path) -> tuple[Path, str | None]:
    """The models folder with the artifacts these rows load compiled again for AVX2, and
    why it could not be made (None when it was, or nothing needed it)."""
    names = sorted({s.artifact for s in specs if s.artifact in REBUILT and s.available() is None})
    if not names:
        return models, None
    console.say(f"  compiling {' and '.join(names)} again for AVX2, for their rows' count")
    try:
        return avx2_models(models, scratch / "models-avx2", names), None
    except Exception as exc:  # any failure of torch, IREE or g++ skips the rows, saying why
        return (
            models,
            f"the AVX2 build of {', '.join(names)} for counting failed: {first_line(exc)}",
        )


def _program(models: Path) -> Any:
    """The exported program the timed package was made from: a ``--torch`` run's
    ``program.pt2``, else our MLP (any width) rebuilt from its state_dict and exported."""
    from callbench.model import user_torch, user_torch_archive
    from callbench.model.exported_programs import export_program
    from callbench.model.wide_mlp import mlp_from_state_dict

    program = models / user_torch.PROGRAM
    if program.is_file():
        return user_torch_archive.load(program)
    return export_program(mlp_from_state_dict(art.require(models, art.STATE_DICT)))


def _compiled(models: Path, name: str) -> tuple[bytes, str]:
    """Artifact ``name`` compiled again for AVX2, and its manifest's format line."""
    if name == AOTI_PACKAGE:
        from callbench.model.exported_programs import package_of

        program, signature = _program(models), art.signature(models)
        data = package_of(program, signature, march=AVX2_MARCH, simdlen=AVX2_BITS)
        return data, f"AOTInductor package (torch.export, CPU, g++ -march={AVX2_MARCH})"
    from callbench.model.iree_model import TARGET_BACKEND, compile_onnx

    flags = (f"--iree-llvmcpu-target-cpu={AVX2_MARCH}",)
    data = compile_onnx(art.require(models, art.ONNX), flags)
    return data, f"IREE VM FlatBuffer module ({TARGET_BACKEND}, {flags[0]}, from {art.ONNX})"


def avx2_models(models: Path, into: Path, names: Sequence[str] = (AOTI_PACKAGE,)) -> Path:
    """A models folder at ``into`` for counting: every file of ``models`` linked but the
    artifacts ``names``, compiled again for AVX2, and the manifest's entries for them
    updated (its checks then pass for the AVX2 builds and no other)."""
    into.mkdir(parents=True)
    for entry in models.iterdir():
        if entry.name not in (*names, art.MANIFEST):
            (into / entry.name).symlink_to(entry.resolve())
    manifest = art.read_manifest(models)
    for name in names:
        data, described = _compiled(models, name)
        art.write_atomic(into / name, data)
        manifest["files"][name] = {
            **manifest["files"].get(name, {}), "bytes": len(data),
            "sha256": art.sha256_of(into / name), "format": described,
        }  # fmt: skip
    art.write_atomic(into / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    return into
