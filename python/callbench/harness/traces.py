"""A program whose TorchScript trace bakes its batch in has one trace per batch the run
calls (``mlp_torchscript_batch<B>.pt``, model/user_torch_artifacts.py) in place of one of
every batch: which file a row loads at its batch, why a batch with none is skipped, and what
its record says.
"""

from __future__ import annotations

from pathlib import Path

from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import user_onnx
from callbench.model.user_torch_artifacts import traced_note
from callbench.records.record import Record


def not_traced_at(spec: DriverSpec, models_dir: Path, batch: int) -> str | None:
    """Why the row is skipped at ``batch``: its artifact was traced per batch, none at this."""
    manifest = art.read_manifest(models_dir)
    made = user_onnx.made_from_program(manifest, spec.artifact)
    if spec.artifact in manifest["files"] or made is None:
        return None
    traced = made.get("traced_at") or []
    if not traced or art.trace_at_batch(spec.artifact, batch) in manifest["files"]:
        return None
    listed = ", ".join(f"{b:,}" for b in traced)
    return (f"no trace at batch {batch:,}: the program's trace bakes its batch in, so it was "
            f"traced at batch {listed} only ({art.trace_at_batch(spec.artifact, batch)} "
            "not made)")  # fmt: skip


def verify(record: Record, spec: DriverSpec, models_dir: Path, batch: int) -> None:
    """The row's artifact checked against the manifest (DataError): its own file, or the trace
    at ``batch``, which the record then names, saying it runs at that batch only."""
    name = art.at_batch(models_dir, spec.artifact, batch)
    art.verify(models_dir, [name])
    if name != spec.artifact:
        record.notes["artifact_file"] = name
        record.notes["traced"] = traced_note(batch)
