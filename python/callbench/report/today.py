"""Two side-by-side views across languages: PyTorch's deployment paths, and the
ONNX Runtime / OpenVINO bindings against the best C++ ONNX Runtime row."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from callbench.records.record import Record
from callbench.report.format import NOT_SHOWN, table, us

# runtime -> how the report names the path
PYTORCH_PATHS = {
    "torch.jit": "TorchScript (deprecated)",
    "libtorch": "LibTorch (C++ API / TorchScript)",
    "djl-pytorch": "TorchScript through DJL (deprecated)",
    "torch": "eager",
    "torch.compile": "torch.compile",
    "aotinductor": "AOTInductor",
    "executorch": "ExecuTorch",
    "onnxruntime": "ONNX Runtime (from torch.onnx.export)",
}
BINDINGS = ("onnxruntime", "onnxruntime-node", "openvino")


def _artifact_bytes(models: Path) -> dict[str, int]:
    try:
        files = json.loads((models / "manifest.json").read_text())["files"]
    except (OSError, ValueError, KeyError):
        return {}
    return {name: int(entry.get("bytes", 0)) for name, entry in files.items()}


def _best(records: Sequence[Record]) -> Record | None:
    ok = [r for r in records if r.ok]
    return min(ok, key=lambda r: r.median_ns) if ok else None


def pytorch_today(records: Sequence[Record], models: Path) -> str:
    """Per language and path: the fastest ok row, its load time and artifact size."""
    sizes = _artifact_bytes(models)
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        if r.runtime in PYTORCH_PATHS:
            groups.setdefault((r.language, PYTORCH_PATHS[r.runtime]), []).append(r)
    rows = []
    for (language, path), members in sorted(groups.items()):
        best = _best(members)
        if best is None:
            why = members[0].error or members[0].status
            rows.append([language, path, f"`{members[0].id}`", why, NOT_SHOWN, NOT_SHOWN])
            continue
        size = sizes.get(best.artifact or "")
        rows.append([
            language, path, f"`{best.id}`", us(best.median_ns),
            f"{best.load_ns / 1e6:.1f}" if best.load_ns is not None else NOT_SHOWN,
            f"{size / 1024:.1f}" if size else NOT_SHOWN,
        ])  # fmt: skip
    header = ["language", "path", "fastest driver", "µs/call", "load ms", "artifact KiB"]
    note = (
        "\nLoad time is the driver's own (for torch.compile: the compile). Export and "
        "compile times of the artifacts are the exporter's, printed by `callbench export`."
    )
    return table(header, rows) + "\n" + note


def bindings(records: Sequence[Record]) -> str:
    """Every ONNX Runtime and OpenVINO row, as a multiple of the best cpp-onnxruntime row."""
    base = _best([r for r in records if r.id.startswith("cpp-onnxruntime")])
    if base is None:
        return "cpp-onnxruntime was not measured in this run."
    rows = []
    for r in sorted((r for r in records if r.runtime in BINDINGS and r.ok),
                    key=lambda r: r.median_ns):  # fmt: skip
        rows.append([
            f"`{r.id}`", r.language, f"{r.runtime} {r.runtime_version or ''}".strip(),
            us(r.median_ns), f"{r.median_ns / base.median_ns:.2f}×",
        ])  # fmt: skip
    header = ["driver", "language", "library", "µs/call", f"× `{base.id}`"]
    return table(header, rows)
