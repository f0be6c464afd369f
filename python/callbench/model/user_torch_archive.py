"""A user's ``.pt2`` looked at as a zip before torch reads it (``--torch PATH``).

``torch.export.load`` unpickles parts of an archive: weights and constants
saved with ``use_pickle``, custom and opaque objects, and the sample inputs
when their ``weights_only`` load fails; its docstring says never to load one
from an untrusted source. So nothing is handed to it until the archive holds
only what a program of plain tensors needs, which this module checks by
reading the zip's names and its two JSON configs (no pickle is opened here):

- the pt2 archive's records (format, version, byte order, serialization id);
- one serialized program (``models/<name>.json``);
- weights and constants stored as raw bytes, none marked ``use_pickle``, and no
  custom or opaque object;
- the sample inputs, which the caller loads with ``weights_only=True`` first.

An AOTInductor package is a ``.pt2`` too; it is told apart and refused with
what to pass instead. ``load`` is the one way in: the checks, then torch's own load.
"""

from __future__ import annotations

import io
import json
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbench.errors import UsageError, first_line

FORMAT, VERSION = "archive_format", "archive_version"
RECORDS = {FORMAT, VERSION, "byteorder", ".data/version", ".data/serialization_id"}
MODELS, WEIGHTS = "models/", "data/weights/"
CONSTANTS, SAMPLES = "data/constants/", "data/sample_inputs/"
COMPILED = ("data/aotinductor/", "data/executorch/", "data/mtia")
OBJECT_PREFIXES = ("custom_obj_", "opaque_obj_")


def refuse(path: Path, problem: str) -> UsageError:
    return UsageError(f"{path}: {problem}")


@dataclass(frozen=True)
class Archive:
    """What the checked archive holds: its root folder, the program's name, and the bytes
    of the sample inputs (a torch.save file, still unopened)."""

    root: str
    name: str
    sample_inputs: bytes


def _config(path: Path, zf: zipfile.ZipFile, member: str) -> dict[str, Any]:
    try:
        found = json.loads(zf.read(member))
    except (KeyError, ValueError) as exc:
        raise refuse(path, f"{member} is missing or not JSON ({exc})") from None
    config = found.get("config") if isinstance(found, dict) else None
    if not isinstance(config, dict):
        raise refuse(path, f"{member} has no 'config' table")
    return config


def _plain_tensors(path: Path, zf: zipfile.ZipFile, member: str, kind: str) -> None:
    """Every entry of a weights or constants config is raw tensor bytes, not a pickle."""
    for fqn, meta in _config(path, zf, member).items():
        file = str((meta or {}).get("path_name", ""))
        if (meta or {}).get("use_pickle") or file.startswith(OBJECT_PREFIXES):
            raise refuse(path, f"its {kind} {fqn!r} is stored as a pickled object ({file}); "
                         "callbench loads only programs of plain tensors, as torch.export.save "
                         "writes them for an nn.Module")  # fmt: skip


def check(path: Path) -> Archive:
    """The archive's names and configs checked; one line (UsageError) naming the problem."""
    if path.suffix != ".pt2":
        raise refuse(path, "is not a .pt2 file (give the file torch.export.save wrote)")
    if not path.is_file():
        raise refuse(path, "no such file")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise refuse(path, f"is not a .pt2 archive (not a zip: {exc})") from None
    with zf:
        names = zf.namelist()
        roots = {n.split("/", 1)[0] for n in names}
        if len(roots) != 1 or not all("/" in n for n in names):
            raise refuse(path, "is not a .pt2 archive (its files are not under one folder)")
        root = roots.pop()
        inner = [n[len(root) + 1 :] for n in names]
        if FORMAT not in inner or zf.read(f"{root}/{FORMAT}").strip() != b"pt2":
            raise refuse(path, "is not a pt2 archive of torch.export.save (no 'archive_format' "
                         "record saying pt2; torch before 2.7 wrote others)")  # fmt: skip
        if any(n.startswith(COMPILED) for n in inner):
            raise refuse(path, "is an AOTInductor (or other compiled) package, not an "
                         "ExportedProgram: pass the .pt2 that torch.export.save wrote; callbench "
                         "compiles its own package from it")  # fmt: skip
        programs = [n[len(MODELS) : -len(".json")] for n in inner
                    if n.startswith(MODELS) and n.endswith(".json")]  # fmt: skip
        if len(programs) != 1:
            raise refuse(path, f"holds {len(programs)} serialized programs, expected one")
        name = programs[0]
        allowed_dirs = (WEIGHTS, CONSTANTS, SAMPLES)
        others = [n for n in inner if n not in RECORDS and n != f"{MODELS}{name}.json"
                  and not n.startswith(allowed_dirs) and not n.endswith("/")]  # fmt: skip
        if others:
            raise refuse(path, f"holds {others[0]!r}, which a program of plain tensors does not "
                         "need; callbench does not load it")  # fmt: skip
        _plain_tensors(path, zf, f"{root}/{WEIGHTS}{name}_weights_config.json", "weight")
        _plain_tensors(path, zf, f"{root}/{CONSTANTS}{name}_constants_config.json", "constant")
        try:
            samples = zf.read(f"{root}/{SAMPLES}{name}.pt")
        except KeyError:
            raise refuse(path, f"has no sample inputs ({SAMPLES}{name}.pt)") from None
    return Archive(root, name, samples)


def load(path: Path) -> Any:
    """The checked archive loaded: its sample inputs first with ``weights_only=True`` (so
    torch's own load never falls back to a full unpickle), then ``torch.export.load``."""
    import torch

    archive = check(path)
    try:
        torch.load(io.BytesIO(archive.sample_inputs), weights_only=True)
    except Exception as exc:  # torch raises UnpicklingError for anything beyond tensors
        raise refuse(path, "its sample inputs are not plain tensors (they do not load with "
                     f"weights_only=True: {first_line(exc)})") from None  # fmt: skip
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.export.load(path)
    except Exception as exc:  # ValueError for another archive version, RuntimeError, ...
        problem = f"torch {torch.__version__} cannot load it ({first_line(exc)})"
        raise refuse(path, problem) from None
