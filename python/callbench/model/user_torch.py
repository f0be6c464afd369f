"""A PyTorch program the user brings (``--torch PATH.pt2``): checked, loaded, then made
into an artifact set, each artifact derived on its own.

The folder has the shape of ``user_onnx``'s (contract 3): one file of samples per
input, one of reference values per output, a manifest with the tensors table and
what the user brought, and the artifacts the drivers load:

- ``program.pt2``: the user's file, byte for byte (the eager rows load it);
- ``mlp.onnx``: ``torch.onnx.export`` of the program (every ONNX driver);
- ``mlp.pt2``: an AOTInductor package of it, compiled for this CPU (the AOTI rows);
- ``mlp_cuda.pt2``: an AOTInductor package of it for the CUDA device (python-aoti-cuda), on a
  host with one; elsewhere its entry says it was skipped and why;
- ``mlp.pte``: an ExecuTorch program of it, lowered to XNNPACK (the ExecuTorch rows);
- ``mlp_portable.pte``: the same without a delegate (ExecuTorch's own kernels);
- ``mlp_torchscript.pt``: ``torch.jit.trace`` of the program's module, checked at another
  batch than it was traced at (the TorchScript rows of Python, C++, Java and Rust); where
  that trace baked its batch in, ``mlp_torchscript_batch<B>.pt`` in its place, one trace
  for each batch the run calls, each checked at its own batch and run at it only.

Only the artifacts the chosen drivers load are made.

Preparing it is one step a module, in order: the archive checked and loaded
(``user_torch_archive``), its inputs and outputs read (``user_torch_ports``), its
samples and reference outputs (``user_torch_reference``), then each artifact derived
on its own (``user_torch_artifacts``), and the folder written as ``user_onnx`` writes it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from callbench.model.user_onnx import Checked, fit_batch
from callbench.model.user_torch_archive import load
from callbench.model.user_torch_artifacts import derived, timed
from callbench.model.user_torch_ports import batch_of, declared
from callbench.model.user_torch_reference import reference_outputs, samples_for

PROGRAM = "program.pt2"
KIND = "torch.export program"


def prepare(
    path: Path, inputs_path: Path | None = None, needed: Collection[str] | None = None,
    batches: Sequence[int] = (1,),
) -> Path:  # fmt: skip
    """The checked artifact set in a temporary folder (the caller moves it beside the run):
    the artifacts ``needed`` (by name; None: every one) that can be made from the program;
    ``batches``, those the run calls (its own first), for a trace that bakes its batch in."""
    import torch

    ep = load(path)
    inputs, outputs = declared(path, ep)
    batch = batch_of(path, inputs)
    samples = fit_batch(path, batch, samples_for(path, inputs_path, inputs))
    reference = reference_outputs(path, ep, inputs, outputs, batch, samples)
    checked = Checked(path, inputs, outputs, batch, samples, reference)
    makers = derived(ep, checked.signature, samples, reference, batches)
    made = {name: timed(make, name) for name, make in makers.items()
            if needed is None or name in needed}  # fmt: skip
    files = {PROGRAM: path.read_bytes()}
    for name, m in made.items():
        if m["status"] == "ok":
            blob = m.pop("blob")
            files.update(blob if isinstance(blob, dict) else {name: blob})
    return checked.write(files, inputs_path, {
        "kind": KIND,
        "producer": f"torch.export (loaded by torch {torch.__version__})",
        "reference": "the program's module (ep.module()) in eager, under torch.inference_mode()",
        "artifacts": made,
    })  # fmt: skip
