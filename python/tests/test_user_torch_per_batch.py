"""A program whose TorchScript trace bakes its batch in (attention's reshape, as in most
transformers) keeps its TorchScript rows: one trace a batch the run calls, each checked at
its own batch, each row run at the batch it was traced for and skipped at another, saying
why; each loader's usage line at a batch with no trace.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from callbench.model import artifacts as art
from callbench.model import user_onnx, user_torch, user_torch_artifacts
from callbench.registry import lookup
from tests import torch_programs as programs
from tests.conftest import HarnessRun, require_available
from tests.test_user_onnx import run_users_model
from tests.test_user_torch import program_rows

# The TorchScript rows of a program, in every language that has one.
TORCHSCRIPT_ROWS = [d for d in program_rows() if lookup(d).artifact == art.TORCHSCRIPT]
# One row of each of the four loaders (Python, C++, Java's org.pytorch and DJL, Rust's tch).
LOADERS = ["python-torchscript", "cpp-torchscript", "java-pytorch", "java-djl",
           "rust-tch-torchscript"]  # fmt: skip


@pytest.fixture(scope="module")
def heads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return programs.heads_reshape(tmp_path_factory.mktemp("heads") / "heads.pt2")


@pytest.fixture(scope="module")
def traced_at_1(heads: Path) -> Path:
    """The program's artifact set with one trace, at batch 1."""
    return user_torch.prepare(heads, needed={art.TORCHSCRIPT}, batches=(1,))


def artifacts_of(folder: Path) -> dict[str, dict[str, object]]:
    manifest = json.loads((folder / art.MANIFEST).read_text())
    made: dict[str, dict[str, object]] = manifest[user_onnx.ORIGIN]["artifacts"]
    return made


def test_the_torchscript_rows_are_every_languages() -> None:
    assert set(LOADERS) <= set(TORCHSCRIPT_ROWS)
    assert {d.split("-")[0] for d in TORCHSCRIPT_ROWS} == {"python", "cpp", "java", "rust"}


def test_a_trace_that_bakes_its_batch_is_made_one_a_batch(heads: Path) -> None:
    """Traced at batch 2 it fails at batch 3: traced again at each batch the run calls (its
    own first), each file listed and checked; each trace gives the program's outputs at its
    batch and fails at another, so the bake is real."""
    folder = user_torch.prepare(heads, needed={art.ONNX, art.TORCHSCRIPT}, batches=(1, 10, 3))
    made = artifacts_of(folder)
    assert made[art.ONNX]["status"] == "ok"
    entry = made[art.TORCHSCRIPT]
    assert entry["status"] == "ok" and entry["traced_at"] == [1, 3, 10]
    assert str(entry["why"]).startswith("traced at batch 2, it fails at batch 3 (")
    assert str(entry["why"]).endswith("): tracing baked a size in")
    assert entry["note"] == "traced at batch B: runs at that batch only"
    assert not (folder / art.TORCHSCRIPT).exists()
    files = json.loads((folder / art.MANIFEST).read_text())["files"]
    x = np.fromfile(folder / "inputs.f32", dtype=np.float32).reshape(-1, 12)
    y = np.fromfile(folder / "reference.f32", dtype=np.float32).reshape(-1, 2)
    for batch in (1, 3, 10):
        name = art.trace_at_batch(art.TORCHSCRIPT, batch)
        assert name in entry["files"] and files[name]["bytes"] == (folder / name).stat().st_size
        module = torch.jit.load(str(folder / name))
        got = module(torch.from_numpy(x[:batch])).detach().numpy()
        assert np.abs(got - y[:batch]).max() <= 1e-4
        with pytest.raises(RuntimeError):
            module(torch.from_numpy(x[: batch + 1]))


def test_traces_past_the_budget_are_left_out_saying_why(
    heads: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run's own batch is always traced; the others only within the budget."""
    monkeypatch.setattr(user_torch_artifacts, "TRACE_BUDGET_S", 0.0)
    folder = user_torch.prepare(heads, needed={art.TORCHSCRIPT}, batches=(1, 10, 100))
    entry = artifacts_of(folder)[art.TORCHSCRIPT]
    assert entry["traced_at"] == [1]
    assert [line.split(":")[0] for line in entry["left_out"]] == ["batch 10", "batch 100"]  # type: ignore[attr-defined]
    assert "past what is left of the 0 s budget" in str(entry["left_out"])


def test_a_program_that_does_not_bake_its_batch_keeps_one_trace(tmp_path: Path) -> None:
    folder = user_torch.prepare(programs.norm_gelu_mlp(tmp_path / "mlp.pt2"),
                                needed={art.TORCHSCRIPT}, batches=(1, 10))  # fmt: skip
    assert "traced_at" not in artifacts_of(folder)[art.TORCHSCRIPT]
    assert (folder / art.TORCHSCRIPT).is_file()


def test_the_torchscript_rows_run_at_batch_1_verified_saying_so(
    heads: Path, run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    """``run --torch`` on the program: every TorchScript row runs the trace made at its
    batch, verified, its record saying so; the report says it too."""
    run = run_users_model(heads, TORCHSCRIPT_ROWS, run_harness, flag="--torch")
    for driver_id in TORCHSCRIPT_ROWS:
        record = run.records[driver_id]
        assert record.artifact == art.TORCHSCRIPT
        assert record.notes["artifact_file"] == "mlp_torchscript_batch1.pt"
        assert record.notes["traced"] == "traced at batch 1: runs at that batch only"
    from callbench.records.store import load_run
    from callbench.report.document import render

    assert run.run_dir is not None
    text = render([load_run(run.run_dir)], tmp_path / "report")
    assert f"| `{art.TORCHSCRIPT}` | made as one trace a batch, at batch 1 (each traced at " in text
    today = text.split("## Calling a PyTorch model today")[1].split("\n## ")[0]
    assert "The program's trace bakes its batch in" in today
    for driver_id in TORCHSCRIPT_ROWS:
        assert f"`{driver_id}` (traced at batch 1: runs at that batch only)" in today


def test_at_a_batch_with_no_trace_the_rows_are_skipped_saying_why(
    traced_at_1: Path, run_harness: Callable[..., HarnessRun]
) -> None:
    only = [a for d in ("python-torchscript", "cpp-torchscript-reuse") for a in ("--only", d)]
    run = run_harness("--models", str(traced_at_1), *only, "--batch", "3", "--rounds", "2",
                      "--round-time", "0.01", "--warmup", "10")  # fmt: skip
    assert run.returncode == 0, run.stderr
    for driver_id in ("python-torchscript", "cpp-torchscript-reuse"):
        record = run.records[driver_id]
        assert record.status == "skipped"
        assert record.error == ("no trace at batch 3: the program's trace bakes its batch in, so "
                                "it was traced at batch 1 only (mlp_torchscript_batch3.pt not "
                                "made)")  # fmt: skip


@pytest.mark.parametrize("driver_id", LOADERS)
def test_each_loader_at_a_batch_with_no_trace_gives_its_usage_line(
    driver_id: str, traced_at_1: Path
) -> None:
    spec = lookup(driver_id)
    require_available(spec)
    done = subprocess.run([*spec.command(), "--models", str(traced_at_1), "--batch", "3",
                           "--calls", "10"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **spec.env()})  # fmt: skip
    missing = traced_at_1 / "mlp_torchscript_batch3.pt"
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"{driver_id}: usage: --batch 3: no trace at this batch ({missing} missing; the "
        "program's trace bakes its batch in)"
    )
