"""The AVX2 builds a count runs where the timed rows run code compiled for this CPU.

AOTInductor's package and torch.compile's kernels are compiled by g++ with
``-march=native`` and Inductor's widest vector ISA: on an AVX-512 host they hold
AVX-512 instructions, which Valgrind does not emulate (the driver dies of SIGILL).
Such rows are counted on a build made at count time for AVX2 (``-march=x86-64-v3``,
``ATEN_CPU_CAPABILITY=avx2``): the same graph, the same compiler and options, 256-bit
vectors. The record's ``count.build`` says so; its figure is the AVX2 build's, not the
timed build's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callbench.errors import first_line
from callbench.harness import console
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model.exported_programs import AOTI_PACKAGE

# What Valgrind 3.19 runs: AVX2, FMA, F16C, BMI1/2, no AVX-512.
AVX2_MARCH = "x86-64-v3"
# Inductor's vector ISA (ATen's own kernels already pick AVX2 under Valgrind, by CPUID)
# and g++'s target, for every kernel Inductor compiles in this process or the driver's.
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


@dataclass(frozen=True)
class Build:
    """What one row's count runs: its models folder, the variables added to its
    environment, and what the record's ``count.build`` says (None: the timed build).
    ``error``: why the build could not be made (the row is skipped with it)."""

    models: Path
    env: dict[str, str] = field(default_factory=dict)
    note: str | None = None
    error: str | None = None


def builds_for(specs: Sequence[DriverSpec], models: Path, scratch: Path) -> dict[str, Build]:
    """Each row's build, by driver id: the timed one, or an AVX2 one made under ``scratch``
    (the AOTInductor package once, for all the rows that load it)."""
    found = {s.id: Build(models) for s in specs}
    for spec in specs:
        if spec.runtime in JIT_COMPILED:
            env = {**AVX2_ENV, "TORCHINDUCTOR_CACHE_DIR": str(scratch / f"inductor-{spec.id}")}
            found[spec.id] = Build(models, env, COMPILE_BUILD)
    aoti = [s for s in specs if s.artifact == AOTI_PACKAGE and s.available() is None]
    if aoti:
        console.say(f"  compiling {AOTI_PACKAGE} again for AVX2, for the AOTInductor rows' count")
        try:
            rebuilt = avx2_models(models, scratch / "models-avx2")
        except Exception as exc:  # any failure of torch or g++ skips the rows, saying why
            error = f"the AVX2 build of {AOTI_PACKAGE} for counting failed: {first_line(exc)}"
            found.update({s.id: Build(models, note=AOTI_BUILD, error=error) for s in aoti})
        else:
            found.update({s.id: Build(rebuilt, note=AOTI_BUILD) for s in aoti})
    return found


@contextmanager
def _avx2_inductor() -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in AVX2_ENV}
    os.environ.update(AVX2_ENV)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _program(models: Path) -> Any:
    """The exported program the timed package was made from: a ``--torch`` run's
    ``program.pt2``, else our MLP (any width) rebuilt from its state_dict and exported."""
    from callbench.model import user_torch
    from callbench.model.exported_programs import export_program
    from callbench.model.wide_mlp import mlp_of_width

    program = models / user_torch.PROGRAM
    if program.is_file():
        return user_torch.load(program)
    state = art.load_state_dict(art.require(models, art.STATE_DICT), hidden=None)
    model = mlp_of_width(state["a.weight"].shape[0])
    model.load_state_dict(state)
    return export_program(model.eval())


def avx2_models(models: Path, into: Path) -> Path:
    """A models folder at ``into`` for the AOTInductor rows' count: every file of ``models``
    linked, ``mlp.pt2`` compiled again for AVX2, and the manifest's entry for it updated
    (its checks then pass for the AVX2 package and no other)."""
    from callbench.model.exported_programs import package_of

    into.mkdir(parents=True)
    for entry in models.iterdir():
        if entry.name not in (AOTI_PACKAGE, art.MANIFEST):
            (into / entry.name).symlink_to(entry.resolve())
    manifest = art.read_manifest(models)
    with _avx2_inductor():
        data = package_of(_program(models), art.signature(models), march=AVX2_MARCH)
    art.write_atomic(into / AOTI_PACKAGE, data)
    entry = manifest["files"].get(AOTI_PACKAGE, {})
    manifest["files"][AOTI_PACKAGE] = {
        **entry, "bytes": len(data), "sha256": art.sha256_of(into / AOTI_PACKAGE),
        "format": f"AOTInductor package (torch.export, CPU, g++ -march={AVX2_MARCH})",
    }  # fmt: skip
    art.write_atomic(into / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    return into
