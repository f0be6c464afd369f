"""``mlp_cuda.pt2`` added to a models folder on a GPU host: ``callbench export`` makes it only
where CUDA is, so a folder exported on a CPU host and carried to a GPU host lacks it.
Light on imports: a GPU host's Python may lack the other exporters' packages."""

from __future__ import annotations

import json
from pathlib import Path

from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy


def add_to(models: Path) -> None:
    """The package made from the folder's state_dict, written, and entered in the manifest
    and the export's seconds (as ``callbench export`` enters it on a GPU host)."""
    from callbench.model.wide_mlp import mlp_from_state_dict

    artifact = deploy.aoti_cuda_package(mlp_from_state_dict(models / art.STATE_DICT))
    path = models / deploy.AOTI_CUDA_PACKAGE
    art.write_atomic(path, artifact.data)
    manifest = art.read_manifest(models)
    manifest["files"][path.name] = {"bytes": len(artifact.data), "sha256": art.sha256_of(path),
                                    "shape": [], **artifact.fields}  # fmt: skip
    seconds_path = models / art.EXPORT_SECONDS
    seconds = json.loads(seconds_path.read_text()) if seconds_path.is_file() else {}
    seconds[path.name] = artifact.seconds
    art.write_atomic(models / art.MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    art.write_atomic(seconds_path, (json.dumps(seconds, indent=2) + "\n").encode())
    print(f"{path.name}: {len(artifact.data):,} bytes in {artifact.seconds:.1f} s", flush=True)
