"""Which rows of two runs measured the same thing, so that `compare` compares only those.

Two runs are comparable when their inputs and reference are the same files and
their batch and thread count are the same; anything else is another model or
another call, and compare refuses it in one line. Within comparable runs, a
driver's row is compared when it loaded the same artifact (its sha256) in both;
a row whose artifact changed, or a driver in one run only, is listed apart and
never gated. A change that adds or re-exports an artifact so gates every row it
did not touch. An artifact the manifest marks not reproducible (compiled for the host
that exported it) differs from one export to the next by design: its row says
"compiled for this host", not "artifact changed".

A run keeps each models file's sha256 in env.json (``files_sha256``). Runs made
before it kept only the manifest's own sha256; against such a run:

- an equal manifest sha256 means every file is the same: rows match by artifact name;
- otherwise, when both runs are of our MLP (no user model, the same fit RMSE, which
  the seeded training and export fix), rows match by artifact name alone and say so
  (``same name``): compare cannot tell a re-exported file with the same name;
- otherwise the runs are refused: nothing says which files they share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from callbench.errors import RunError
from callbench.model import artifacts as art
from callbench.model.tensors import INPUTS_STEM, REFERENCE_STEM
from callbench.model.user_onnx import ORIGIN
from callbench.records.record import Record
from callbench.records.store import ENV_FILE, Run

Comparability = Literal[
    "same", "same name", "artifact changed", "compiled for this host", "only in A", "only in B"
]
# The rows that are compared and gated; the others are listed apart.
COMPARED: tuple[Comparability, ...] = ("same", "same name")
# Options that change what one call is: runs that differ in them are not comparable.
SAME_CALL = ("batch", "threads")
# Files every row reads (each input's samples, each output's reference; contract 3 names
# them inputs*.<ext> and reference*.<ext>): runs that differ in them measured another model.
MODEL_STEMS = (INPUTS_STEM, REFERENCE_STEM)
Basis = Literal["sha256", "manifest", "artifact name"]


@dataclass(frozen=True)
class Matching:
    """How two comparable runs' rows are matched, and each run's per-file sha256."""

    basis: Basis
    a_files: dict[str, str]
    b_files: dict[str, str]
    # Files either run's manifest marked as compiled for its host (not reproducible).
    compiled: frozenset[str] = frozenset()

    def of(self, a: Record | None, b: Record | None) -> Comparability:
        """One driver's comparability, from its record in each run (None: not in that run)."""
        if a is None or b is None:
            return "only in B" if a is None else "only in A"
        if a.artifact != b.artifact:
            return "artifact changed"
        if a.artifact is None or self.basis == "manifest":
            return "same"
        if self.basis == "artifact name":
            return "same name"
        found = self.a_files.get(a.artifact)
        same = found is not None and found == self.b_files.get(a.artifact)
        if same:
            return "same"
        return "compiled for this host" if a.artifact in self.compiled else "artifact changed"

    def files_differ(self) -> list[str] | None:
        """The models files whose sha256 differs or that one run lacks; None: unknown."""
        if self.basis != "sha256":
            return None if self.basis == "artifact name" else []
        names = set(self.a_files) | set(self.b_files)
        return sorted(n for n in names if self.a_files.get(n) != self.b_files.get(n))

    def describe(self) -> str:
        if self.basis == "sha256":
            differ = ", ".join(self.files_differ() or []) or "none"
            return (
                "rows matched by their artifact's sha256; inputs and reference the same files; "
                f"files that differ: {differ}"
            )
        if self.basis == "manifest":
            return "rows matched by artifact name; the two manifests are the same file"
        return (
            "rows matched by artifact name only: a run keeps no per-file sha256 (made before "
            "they were kept); inputs and reference taken as the same by the fit RMSE"
        )


def files_sha256(env: dict[str, Any]) -> dict[str, str] | None:
    found = env.get(art.FILES_SHA256)
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else None


def compiled_for_host(env: dict[str, Any]) -> frozenset[str]:
    """The files a run's manifest marked not reproducible; none for a run made before
    runs kept the mark."""
    found = env.get(art.COMPILED_FOR_HOST)
    return frozenset(str(n) for n in found) if isinstance(found, list) else frozenset()


def _same_call(a: Run, b: Run, where: str) -> None:
    a_options, b_options = a.env.get("options") or {}, b.env.get("options") or {}
    for name in SAME_CALL:
        if a_options.get(name) != b_options.get(name):
            raise RunError(
                f"{where}: --{name} {b_options.get(name)} against run A's {a_options.get(name)}"
            )


def _by_name_only(a: Run, b: Run, where: str) -> None:
    """RunError unless both runs say they are of our MLP, by the same fit."""
    older = "run A" if files_sha256(a.env) is None else "run B"
    if a.env.get(ORIGIN) is not None or b.env.get(ORIGIN) is not None:
        raise RunError(
            f"{where}: another model than run A's (manifest sha256 differs, and {older} "
            "keeps no per-file sha256 to say which files are shared)"
        )
    a_fit, b_fit = a.env.get("fit_rmse"), b.env.get("fit_rmse")
    if a_fit is None or a_fit != b_fit:
        raise RunError(
            f"{where}: another model than run A's (fit RMSE {b_fit} against {a_fit}, and "
            f"{older} keeps no per-file sha256)"
        )


def matching(a: Run, b: Run) -> Matching:
    """How the runs' rows match; RunError (one line naming B's env.json) when they
    measured another model or another call."""
    where = str(b.path / ENV_FILE)
    _same_call(a, b, where)
    a_files, b_files = files_sha256(a.env), files_sha256(b.env)
    if a_files is not None and b_files is not None:
        shared = sorted(n for n in {*a_files, *b_files} if n.startswith(MODEL_STEMS))
        for name in shared:
            if a_files.get(name) != b_files.get(name):
                raise RunError(f"{where}: another model than run A's ({name} sha256 differs)")
        basis: Basis = "sha256"
    elif a.env.get("manifest_sha256") is not None and (
        a.env.get("manifest_sha256") == b.env.get("manifest_sha256")
    ):
        basis = "manifest"
    else:
        _by_name_only(a, b, where)
        basis = "artifact name"
    if not {r.id for r in a.drivers} & {r.id for r in b.drivers}:
        raise RunError(f"{where}: no driver in common with run A")
    compiled = compiled_for_host(a.env) | compiled_for_host(b.env)
    return Matching(basis, a_files or {}, b_files or {}, compiled)
