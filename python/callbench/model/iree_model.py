"""``mlp.vmfb``: mlp.onnx compiled by IREE for this CPU, for python-iree.

IREE's documented ONNX path: ``iree-import-onnx`` turns the ONNX graph into
MLIR (the torch-mlir ONNX dialect), and ``iree-compile`` lowers it for the
``llvm-cpu`` backend with the host's features (``--iree-llvmcpu-target-cpu=host``)
into a VM FlatBuffer module that the runtime loads. Compiling again on the
same CPU with the same compiler gives the same bytes; on another CPU the code,
and so the bytes, may differ, which the manifest says.
"""

from __future__ import annotations

import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from callbench.model.exported_programs import Artifact

VMFB = "mlp.vmfb"
FUNCTION = "main_graph"  # the ONNX importer names the graph's function so
COMPILE_FLAGS = ("--iree-llvmcpu-target-cpu=host",)
TARGET_BACKEND = "llvm-cpu"
NOT_PORTABLE = (
    "byte-identical when compiled again on the same CPU with the same iree-base-compiler: "
    "the module holds machine code for this host's CPU features (--iree-llvmcpu-target-cpu=host)"
)


def compile_onnx(onnx_path: Path, flags: tuple[str, ...] = COMPILE_FLAGS) -> bytes:
    """The ONNX model at ``onnx_path`` imported and compiled to a VM FlatBuffer module
    (for this CPU, or as ``flags`` say)."""
    from iree.compiler.tools import compile_str
    from iree.compiler.tools.import_onnx.__main__ import main as import_onnx
    from iree.compiler.tools.import_onnx.__main__ import parse_arguments

    with tempfile.TemporaryDirectory(prefix="callbench-iree-") as folder:
        mlir = Path(folder) / "mlp.mlir"
        import_onnx(parse_arguments([str(onnx_path), "-o", str(mlir)]))
        text = mlir.read_text()
    # From the text, not the file: compiled from a file, the module records the
    # file's (temporary, random) path, and the bytes would change from one export to
    # the next.
    module: bytes = compile_str(text, target_backends=[TARGET_BACKEND], extra_args=list(flags))
    return module


def vmfb(onnx_path: Path) -> Artifact:
    """``mlp.vmfb`` and its manifest fields."""
    start = time.perf_counter()
    data = compile_onnx(onnx_path)
    return Artifact(
        data,
        {
            "format": f"IREE VM FlatBuffer module ({TARGET_BACKEND}, from mlp.onnx)",
            "function": FUNCTION,
            "compile_flags": list(COMPILE_FLAGS),
            "iree_base_compiler": version("iree-base-compiler"),
            "reproducible": False,
            "reproducible_note": NOT_PORTABLE,
        },
        time.perf_counter() - start,
    )
