"""The torch.export-based artifacts (AOTInductor, ExecuTorch) and their drivers.

The exporter writes them with the rest (``small_models``); they must agree with
the reference, say in the manifest whether their bytes are reproducible, and
a driver given a program of another model must fail naming the file (the
conformance suite covers missing, truncated and garbled files).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
import torch

from callbench.harness.options import ATOL
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.model import exported_programs as deploy
from callbench.registry import DRIVERS
from tests.conftest import require_available, run_driver

NEW_ARTIFACTS = (deploy.AOTI_PACKAGE, deploy.EXECUTORCH_XNNPACK, deploy.EXECUTORCH_PORTABLE)
DEPLOY_DRIVERS = [d for d in DRIVERS if d.artifact in NEW_ARTIFACTS]


def test_the_new_artifacts_are_in_the_manifest(small_models: Path) -> None:
    manifest = art.verify(small_models, NEW_ARTIFACTS)
    files = manifest["files"]
    for name in NEW_ARTIFACTS:
        assert files[name]["max_batch"] == deploy.MAX_BATCH
    # The AOTInductor package holds machine code for this CPU: the manifest says so, and why.
    assert files[deploy.AOTI_PACKAGE]["reproducible"] is False
    assert "-march=native" in files[deploy.AOTI_PACKAGE]["reproducible_note"]
    assert files[deploy.EXECUTORCH_XNNPACK]["reproducible"] is True
    assert files[art.INPUTS]["reproducible"] is True
    assert "executorch" in manifest["versions"]


def test_the_aoti_package_agrees_with_the_reference(small_models: Path) -> None:
    import torch._inductor

    x = torch.from_numpy(art.read_inputs(small_models))
    reference = art.read_reference(small_models)
    compiled = torch._inductor.aoti_load_package(str(small_models / deploy.AOTI_PACKAGE))
    with torch.inference_mode():
        for batch in (1, 7, len(x)):
            y = compiled(x[:batch]).numpy()
            assert y.shape == (batch, 1)
            np.testing.assert_allclose(y, reference[:batch], atol=ATOL, rtol=0)


def test_the_aoti_package_carries_the_signature(small_models: Path, other_models: Path) -> None:
    """The C++ drivers read the inputs' and outputs' dtypes and shapes from its metadata."""
    import torch._inductor

    package = small_models / deploy.AOTI_PACKAGE
    metadata = torch._inductor.aoti_load_package(str(package)).get_metadata()
    assert metadata["callbench.input.0"] == "x float32 2"
    assert metadata["callbench.output.0"] == "y float32 1"
    assert "callbench.input.1" not in metadata
    assert deploy.carries_signature(package)
    assert not deploy.carries_signature(other_models / deploy.AOTI_PACKAGE)


@pytest.mark.parametrize("name", [deploy.EXECUTORCH_XNNPACK, deploy.EXECUTORCH_PORTABLE])
def test_the_executorch_programs_agree_with_the_reference(small_models: Path, name: str) -> None:
    logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
    from executorch.runtime import Runtime

    x = torch.from_numpy(art.read_inputs(small_models))
    reference = art.read_reference(small_models)
    method = Runtime.get().load_program(small_models / name).load_method("forward")
    for batch in (1, 7, len(x)):
        (y,) = method.execute([x[:batch]])
        assert tuple(y.shape) == (batch, 1)
        np.testing.assert_allclose(y.numpy(), reference[:batch], atol=ATOL, rtol=0)


class Identity(torch.nn.Module):
    """Another model with the same input: it answers [B, 2] instead of [B, 1]."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 1.0


@pytest.fixture(scope="session")
def other_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The identity model in each new format, under the artifacts' names (made once)."""
    import torch._inductor

    logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    out = tmp_path_factory.mktemp("other")
    program = deploy.export_program(Identity())
    torch._inductor.aoti_compile_and_package(program, package_path=str(out / deploy.AOTI_PACKAGE))
    for name, partitioner in (
        (deploy.EXECUTORCH_XNNPACK, [XnnpackPartitioner()]),
        (deploy.EXECUTORCH_PORTABLE, []),
    ):
        edge = to_edge_transform_and_lower(
            deploy.export_program(Identity()), partitioner=partitioner
        )
        (out / name).write_bytes(edge.to_executorch().buffer)
    return out


@pytest.mark.parametrize("spec", DEPLOY_DRIVERS, ids=lambda d: d.id)
def test_a_program_of_another_model_fails_naming_the_file(
    spec: DriverSpec, other_models: Path, models_copy: Path
) -> None:
    require_available(spec)
    path = models_copy / spec.artifact
    path.write_bytes((other_models / spec.artifact).read_bytes())
    args = ["--models", str(models_copy), "--calls", "50", "--warmup", "5", "--repeats", "1"]
    done = run_driver(spec, *args)
    assert done.returncode == 1, done.stderr[-500:]
    lines = [ln for ln in done.stderr.splitlines() if ln.strip() and not ln.startswith("progress:")]
    assert lines == [lines[-1]] and lines[-1].startswith(f"{spec.id}: error: {path}: "), lines
    assert "Traceback" not in done.stderr
