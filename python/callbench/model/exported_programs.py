"""The artifacts of PyTorch's deployment paths, all made from one ``torch.export``.

- ``mlp.pt2``: an AOTInductor package for the CPU (``aoti_compile_and_package``):
  the graph compiled by g++ into a shared library, zipped with its metadata.
  Compiled in Inductor's max-autotune mode with its C++ GEMM template as the
  only GEMM backend (:data:`AOTI_CONFIG`): the three linear layers become C++
  loops in the library instead of calls to ATen's addmm (tried by hand with
  cpp-aoti-reuse: under half the cost per call of the default options, which
  allocate intermediate tensors and go through ATen's dispatcher). Naming the
  one GEMM backend also keeps autotuning's timings from choosing, so the bytes
  do not depend on them. Freezing, the AOTInductor docs' advice for CPU inference, is
  on too; for this model it changes no byte of the package.
- ``mlp_cuda.pt2``: an AOTInductor package for the CUDA device, made only on a host with
  one (the program moved there with ``move_to_device_pass``, then compiled by Inductor's
  Triton kernels with its default options); python-aoti-cuda loads it.
- ``mlp.pte``: an ExecuTorch program lowered to XNNPACK
  (``to_edge_transform_and_lower`` with ``XnnpackPartitioner``).
- ``mlp_portable.pte``: the same program without a delegate: ExecuTorch's own
  kernels run every operator.

The batch dimension is dynamic, 1 .. ``MAX_BATCH`` (the most samples a run can
ask for in one call). ExecuTorch plans memory for the upper bound.

Bytes: the ExecuTorch programs are the same for the same versions. The
AOTInductor package holds a shared library built with ``-march=native`` whose
debug info and source comments hold absolute paths (the torch headers of this
Python environment, the build folder); :data:`AOTI_BUILD_DIR` is a fixed
folder emptied before each export, so exporting again on the same machine from
the same environment gives the same bytes, but another machine or environment
does not. The manifest says so per file (``reproducible``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import tempfile
import time
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from callbench.model.architecture import MLP_SIGNATURE

if TYPE_CHECKING:  # torch is imported where it is used: the registry reads the names below
    import torch

    from callbench.model.tensors import Signature

AOTI_PACKAGE = "mlp.pt2"
AOTI_CUDA_PACKAGE = "mlp_cuda.pt2"
# Made only on a host with a CUDA device (elsewhere no export holds them).
CUDA_ONLY = frozenset({AOTI_CUDA_PACKAGE})
EXECUTORCH_XNNPACK = "mlp.pte"
EXECUTORCH_PORTABLE = "mlp_portable.pte"
MAX_BATCH = 1_000_000
AOTI_CONFIG: dict[str, Any] = {
    "freezing": True,
    "max_autotune": True,
    "max_autotune_gemm_backends": "CPP",
}
# A fixed path: it ends up inside the compiled library, so it must not vary.
AOTI_BUILD_DIR = Path(tempfile.gettempdir()) / f"callbench-aoti-build-{os.getuid()}"
AOTI_NOT_PORTABLE = (
    "byte-identical only when exported again on the same CPU from the same Python "
    "environment: the package holds a shared library that g++ compiled with -march=native, "
    "and its debug info and source comments hold the absolute paths of the torch headers "
    "and of the build folder (fixed, and emptied before each export, so re-exports here match)"
)


@dataclass
class Artifact:
    """One exported file: its bytes, its manifest fields, and how long it took."""

    data: bytes
    fields: dict[str, Any]
    seconds: float = 0.0


def export_program(model: torch.nn.Module) -> torch.export.ExportedProgram:
    """``torch.export`` of the model with a dynamic batch of 1 .. MAX_BATCH."""
    import torch

    batch = torch.export.Dim("batch", min=1, max=MAX_BATCH)
    return torch.export.export(model, (torch.zeros(4, 2),), dynamic_shapes={"x": {0: batch}})


@contextlib.contextmanager
def _private_inductor_cache(folder: Path) -> Iterator[Path]:
    """An empty Inductor cache at ``folder``, one export at a time (a lock beside it).

    A warm cache would not do: Inductor appends the compile commands to its
    cached sources again on every hit, so the package's bytes would drift.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:  # noqa: PTH123
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        saved = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(folder)
        try:
            yield folder
        finally:
            if saved is None:
                os.environ.pop("TORCHINDUCTOR_CACHE_DIR", None)
            else:
                os.environ["TORCHINDUCTOR_CACHE_DIR"] = saved
            shutil.rmtree(folder, ignore_errors=True)


def signature_metadata(signature: Signature) -> dict[str, str]:
    """``callbench.input.<k>`` and ``callbench.output.<k>``, each ``"<name> <dtype> <size>..."``
    (the sizes of one sample, the batch left out; none for a scalar sample), in the
    model's order: the C++ AOTInductor drivers' signature (contract 3)."""
    found = {}
    for role, group in (("input", signature.inputs), ("output", signature.outputs)):
        for index, t in enumerate(group):
            found[f"callbench.{role}.{index}"] = " ".join([t.name, t.dtype, *map(str, t.shape)])
    return found


def carries_signature(package: Path) -> bool:
    """Whether the AOTInductor package at ``package`` has :func:`signature_metadata` (one
    exported before callbench wrote it there has not: the C++ drivers refuse it)."""
    with zipfile.ZipFile(package) as archive:
        small = [i.filename for i in archive.infolist()
                 if i.filename.endswith("metadata.json") and i.file_size < 1 << 20]  # fmt: skip
        return any("callbench.input.0" in json.loads(archive.read(name)) for name in small)


def package_of(
    program: torch.export.ExportedProgram,
    signature: Signature,
    march: str | None = None,
    simdlen: int | None = None,
) -> bytes:
    """An AOTInductor package of ``program``, compiled for this CPU (or for g++'s ``-march``
    target ``march``, with Inductor's vectors of ``simdlen`` bits), as ``mlp.pt2``'s bytes,
    with ``signature`` in its metadata."""
    import torch._inductor

    configs = {**AOTI_CONFIG, "aot_inductor.metadata": signature_metadata(signature)}
    if march is not None:
        configs["cpp.march"] = march
    if simdlen is not None:
        configs["cpp.simdlen"] = simdlen

    with _private_inductor_cache(AOTI_BUILD_DIR) as build:
        # The package's top folder is named after the file: write it as mlp.pt2.
        path = build / "package" / AOTI_PACKAGE
        path.parent.mkdir()
        torch._inductor.aoti_compile_and_package(
            program, package_path=str(path), inductor_configs=configs
        )
        return path.read_bytes()


def cuda_package_of(
    program: torch.export.ExportedProgram, signature: Signature, device: str = "cuda"
) -> bytes:
    """An AOTInductor package of ``program`` for ``device`` (a CUDA device on a GPU host), as
    ``mlp_cuda.pt2``'s bytes, with ``signature`` in its metadata. A copy of the program is
    moved to the device first, its inputs' examples included, so Inductor compiles for it
    (and ``program`` stays on the CPU for the other exporters)."""
    import copy

    import torch._inductor
    from torch.export.passes import move_to_device_pass

    moved = move_to_device_pass(copy.deepcopy(program), device)
    configs = {"aot_inductor.metadata": signature_metadata(signature)}
    with _private_inductor_cache(AOTI_BUILD_DIR) as build:
        path = build / "package" / AOTI_CUDA_PACKAGE
        path.parent.mkdir()
        torch._inductor.aoti_compile_and_package(
            moved, package_path=str(path), inductor_configs=configs
        )
        return path.read_bytes()


def aoti_cuda_package(model: torch.nn.Module) -> Artifact:
    """``mlp_cuda.pt2``: torch.export + AOTInductor for the CUDA device (a GPU host only)."""
    start = time.perf_counter()
    data = cuda_package_of(export_program(model), MLP_SIGNATURE)
    return Artifact(
        data,
        {
            "format": "AOTInductor package (torch.export, CUDA, Inductor's default options)",
            "max_batch": MAX_BATCH,
            "reproducible": False,
            "reproducible_note": "compiled for the GPU and the CUDA of the host that exported it",
        },
        time.perf_counter() - start,
    )


def aoti_package(model: torch.nn.Module) -> Artifact:
    """``mlp.pt2``: torch.export + AOTInductor, compiled for this CPU by g++."""
    start = time.perf_counter()
    data = package_of(export_program(model), MLP_SIGNATURE)
    return Artifact(
        data,
        {
            "format": "AOTInductor package (torch.export, CPU, g++ -march=native)",
            "inductor_configs": AOTI_CONFIG,
            "max_batch": MAX_BATCH,
            "reproducible": False,
            "reproducible_note": AOTI_NOT_PORTABLE,
        },
        time.perf_counter() - start,
    )


def _quiet_executorch() -> None:
    """ExecuTorch's import pulls in torchao, which logs a deprecation meant for its authors."""
    logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", module=r"executorch\.")
    warnings.filterwarnings("ignore", module=r"torchao\.")


def executorch_of(program: torch.export.ExportedProgram, xnnpack: bool = True) -> bytes:
    """An ExecuTorch program of ``program``: lowered to XNNPACK, or on ExecuTorch's own
    (portable) kernels."""
    _quiet_executorch()
    try:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.exir import to_edge_transform_and_lower
    except ImportError as exc:
        raise RuntimeError(
            f"cannot import executorch ({exc}): install the pinned executorch wheel"
        ) from None
    partitioners = [XnnpackPartitioner()] if xnnpack else []
    edge = to_edge_transform_and_lower(program, partitioner=partitioners)
    return bytes(edge.to_executorch().buffer)


def executorch_programs(model: torch.nn.Module) -> dict[str, Artifact]:
    """``mlp.pte`` (XNNPACK) and ``mlp_portable.pte`` (ExecuTorch's kernels only); the
    first one's seconds include importing executorch."""
    out: dict[str, Artifact] = {}
    for name, xnnpack, what in (
        (EXECUTORCH_XNNPACK, True, "lowered to XNNPACK"),
        (EXECUTORCH_PORTABLE, False, "no delegate: ExecuTorch's kernels"),
    ):
        t0 = time.perf_counter()
        data = executorch_of(export_program(model), xnnpack)
        out[name] = Artifact(
            data,
            {"format": f"ExecuTorch program, {what}", "max_batch": MAX_BATCH, "reproducible": True},
            time.perf_counter() - t0,
        )
    return out


def versions() -> dict[str, str]:
    """The ExecuTorch version, for the manifest (torch's is already there)."""
    from executorch import version

    return {"executorch": str(version.__version__)}
