"""The family of model sizes a run may ask for: each width's artifact folder, checked.

`callbench export` writes the reference (hidden width 8) in models/ and each
wider model in models/widths/<H>/, listed in family.json. A run resolves its
``--widths`` here, once, before any driver starts: a width the export did not
write, or a folder whose files disagree with family.json or with its own
manifest, stops the run with one line naming the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbench.errors import EXPORT_HINT, DataError, UsageError
from callbench.model import artifacts as art
from callbench.model.architecture import HIDDEN, state_dict_shapes, weight_count
from callbench.model.tensors import read_signature


@dataclass(frozen=True)
class Width:
    """One width of the family: its hidden size and the folder a driver's --models names."""

    hidden: int
    models: Path


def parse_widths(text: str) -> list[int]:
    """ "8,512" -> [8, 512] (sorted, each once; "" -> []); a usage error for anything else."""
    widths: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit() or int(part) < 1:
            raise UsageError(f"--widths: {part!r} is not a positive whole number")
        widths.add(int(part))
    return sorted(widths)


def read_family(models: Path) -> dict[str, Any]:
    """family.json, checked for the one table a run reads: its widths."""
    path = art.require(models, art.FAMILY)
    try:
        family: dict[str, Any] = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(path, f"not valid JSON ({exc}); {EXPORT_HINT}") from None
    entries = family.get("widths") if isinstance(family, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("hidden"), int) for e in entries
    ):
        raise DataError(path, f"has no list of widths with their 'hidden' size; {EXPORT_HINT}")
    return family


def exported(models: Path) -> list[int]:
    """The widths family.json lists (the reference's 8 first); [8] when there is none."""
    if not (models / art.FAMILY).is_file():
        return [HIDDEN]
    return [HIDDEN, *sorted(e["hidden"] for e in read_family(models)["widths"])]


def check_width(models: Path, entry: dict[str, Any]) -> Width:
    """The folder of one family.json entry, its files checked against the entry and the
    folder's manifest (bytes, sha256), and the model's sizes against its width."""
    hidden = entry["hidden"]
    folder = models / art.family_folder(hidden)
    listed: dict[str, Any] = entry.get("files") or {}
    manifest = art.verify(folder, list(listed))
    # A width exported before contract 3 fails here, before any driver of the sweep runs.
    read_signature(folder / art.MANIFEST, manifest)
    family_path = models / art.FAMILY
    for name, sha in listed.items():
        if manifest["files"][name].get("sha256") != sha:
            problem = f"sha256 does not match {family_path}'s width {hidden}"
            raise DataError(folder / name, f"{problem}; {EXPORT_HINT}")
    shapes = {k: tuple(v) for k, v in (manifest.get("state_dict_keys") or {}).items()}
    if shapes != state_dict_shapes(hidden):
        raise DataError(
            folder / art.MANIFEST,
            f"its state_dict shapes are not those of width {hidden} "
            f"(2 -> {hidden} -> {hidden} -> 1); {EXPORT_HINT}",
        )
    weights = folder / art.WEIGHTS
    if weights.is_file() and weights.stat().st_size != 4 * weight_count(hidden):
        raise DataError(
            weights,
            f"is {weights.stat().st_size} bytes, width {hidden} has "
            f"{weight_count(hidden)} floats; {EXPORT_HINT}",
        )
    return Width(hidden, folder)


def resolve(models: Path, widths: list[int]) -> list[Width]:
    """Each asked-for width's folder, all checked before a driver runs; 8 is ``models``."""
    wider = [w for w in widths if w != HIDDEN]
    entries: dict[int, dict[str, Any]] = {}
    if wider:
        entries = {e["hidden"]: e for e in read_family(models)["widths"]}
    missing = [w for w in wider if w not in entries]
    if missing:
        have = ", ".join(map(str, exported(models)))
        raise UsageError(
            f"--widths {','.join(map(str, missing))}: not exported "
            f"({models / art.FAMILY} lists {have}); run `callbench export --widths "
            f"{','.join(map(str, sorted({*entries, *missing})))}`"
        )
    return [Width(w, models) if w == HIDDEN else check_width(models, entries[w]) for w in widths]
