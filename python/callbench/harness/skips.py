"""Why a chosen driver is skipped before it starts, said in its record: beyond its own
``available()`` (a binary not built, no CUDA device), what this run asks that it cannot do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from callbench.driver_options import ONE_CALLER
from callbench.harness import batch_reach
from callbench.harness.options import RunOptions
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import user_onnx
from callbench.model.user_torch import PROGRAM


def why(spec: DriverSpec, options: RunOptions, sweep: dict[str, Any] | None) -> str | None:
    """The first reason this run cannot run ``spec``, None where it can."""
    return (not_exported(spec, options, sweep) or one_caller(spec, options)
            or mlp_only(spec, options.models) or one_process(spec, options))  # fmt: skip


def mlp_only(spec: DriverSpec, models: Path) -> str | None:
    """Why a plain caller of our MLP alone is skipped on a model the user brought."""
    manifest = art.read_manifest(models)
    if not spec.mlp_only or (user_onnx.ORIGIN not in manifest and not
                             (models / PROGRAM).is_file()):  # fmt: skip
        return None
    return "a plain caller of our MLP alone (one float32 input x, one output y)"


def one_caller(spec: DriverSpec, options: RunOptions) -> str | None:
    """Why a driver that runs one caller is skipped at N callers (its registry line)."""
    if options.callers == 1 or spec.callers is not None:
        return None
    return f"{ONE_CALLER} ({spec.one_caller})"


def one_process(spec: DriverSpec, options: RunOptions) -> str | None:
    """Why a driver is skipped at N processes: a plain caller's rounds do not say when
    they ran (every kit's do: contract 4's processes)."""
    if options.processes == 1 or not spec.id.startswith("independent-"):
        return None
    return "a plain caller: its rounds do not say when they ran (start_ns, end_ns)"


def not_exported(spec: DriverSpec, options: RunOptions, sweep: dict[str, Any] | None) -> str | None:
    """Why the driver is skipped for want of its artifact: a width sweep's export has
    none, a user's program (``--torch``) could not be made into it, or made into one that does
    not reach this batch (batch_reach.py)."""
    if reason := batch_reach.why_not_at(spec, options.models, options.batch):
        return reason
    manifest = art.read_manifest(options.models)
    if spec.artifact in manifest["files"]:
        return None
    made = user_onnx.made_from_program(manifest, spec.artifact)
    if made is not None and made.get("status") in ("failed", "skipped"):
        return f"{spec.artifact} could not be made from the program ({made.get('error')})"
    if sweep and (sweep["kind"] == "width" or sweep.get("width")):
        width = sweep.get("width") or sweep["value"]
        return f"width {width} has no {spec.artifact} (not exported)"
    return None
