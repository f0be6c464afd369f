"""Why a driver does not run a user's torch.export program (``--torch``): it is about our
MLP alone. A ``--torch`` run records each such chosen driver as skipped with this line, so
the run says what it left out and why rather than leaving the row silently absent."""

from __future__ import annotations

from callbench.model import artifacts as art
from callbench.model.iree_model import VMFB
from callbench.model.litert_model import TFLITE

# By the artifact the driver loads; nothing of these is made from a program.
BY_ARTIFACT = {
    art.WEIGHTS: "computes our MLP from its weights (mlp_weights.f32), "
    "a hand-written or library rebuild of its two layers, not a program's graph",
    art.STATE_DICT: "builds our MLP's torch.nn module and loads its state_dict "
    "(the seed's Python code as written)",
    art.TORCHSCRIPT: "calls our MLP's TorchScript the seed's way, on its [B, 2] float32 input",
    TFLITE: "loads a TFLite flatbuffer built from our MLP's weights; "
    "callbench makes none from a program",
    VMFB: "loads our MLP's ONNX compiled by IREE for this CPU; "
    "callbench compiles no program's export for it",
}


def reason(artifact: str) -> str:
    """The record's line for a driver of ``artifact`` left out of a ``--torch`` run."""
    why = BY_ARTIFACT.get(artifact, f"loads {artifact}, made from our MLP alone")
    return f"runs our MLP only: {why}"
