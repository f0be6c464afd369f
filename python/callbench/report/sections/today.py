"""Two side-by-side views across languages: PyTorch's deployment paths, and the
ONNX Runtime / OpenVINO bindings against the best C++ ONNX Runtime row."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from callbench.languages.cpp import LANGUAGE as CPP
from callbench.model import artifacts as art
from callbench.model.user_onnx import ORIGIN
from callbench.records.record import Record
from callbench.registry import seed_driver
from callbench.report.blocks.format import NOT_SHOWN, table, us
from callbench.report.blocks.ratios import ratio
from callbench.roles import TORCHSCRIPT_FROM_CPP, Call

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
    "litert": "LiteRT (a TFLite flatbuffer of the weights)",
    "iree": "IREE (mlp.onnx compiled for this CPU)",
}
BINDINGS = ("onnxruntime", "onnxruntime-node", "onnxruntime-web", "onnxruntime-ffm", "openvino")
# The engine under a binding's runtime name, so that versions of one engine are compared.
ENGINES = {name: "onnxruntime" for name in BINDINGS if name.startswith("onnxruntime-")}
MIXED = "†"
# Each binding is pinned to the newest release its registry serves (checked 2026-11-25).
NEWEST_SERVED = (
    "Each binding is pinned to the newest version its registry serves: the wheel's 1.31.1 "
    "(Python, and the C++, Rust and Go rows that load its library), Maven Central's "
    "com.microsoft.onnxruntime:onnxruntime 1.29.0 (whose library the FFM row calls too), "
    "npm's onnxruntime-node and onnxruntime-web 1.30.0."
)


# PyTorch's own words on the status of the newer paths, quoted where their rows are.
AOTI_STATUS = (
    "AOTInductor is a prototype: PyTorch's documentation (torch.compiler_aot_inductor) "
    'warns that "AOTInductor and its related features are in prototype status and are '
    'subject to backwards compatibility breaking changes".'
)


def _artifact_bytes(models: Path) -> dict[str, int]:
    try:
        files = json.loads((models / art.MANIFEST).read_text())["files"]
    except (OSError, ValueError, KeyError):
        return {}
    return {name: int(entry.get("bytes", 0)) for name, entry in files.items()}


def _export_seconds(models: Path) -> dict[str, float]:
    """Seconds the exporter took per artifact (absent for an older export); for a user's
    program, those its manifest's artifacts table gives."""
    try:
        found = json.loads((models / art.EXPORT_SECONDS).read_text())
    except (OSError, ValueError):
        try:
            made = json.loads((models / art.MANIFEST).read_text())[ORIGIN]["artifacts"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        found = {k: v.get("seconds") for k, v in made.items() if isinstance(v, dict)}
    if not isinstance(found, dict):
        return {}
    return {k: float(v) for k, v in found.items() if isinstance(v, int | float)}


def _cpp(records: Sequence[Record], runtime: str) -> list[Record]:
    """The run's C++ rows of ``runtime``, by what each record says of itself."""
    return [r for r in records if r.language == CPP and r.runtime == runtime]


def _best(records: Sequence[Record]) -> Record | None:
    ok = [r for r in records if r.ok]
    return min(ok, key=lambda r: r.median_ns) if ok else None


def pytorch_today(records: Sequence[Record], models: Path) -> str:
    """Per language and path: the fastest ok row, its load time, artifact size and export time."""
    sizes = _artifact_bytes(models)
    exported = _export_seconds(models)
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        if r.runtime in PYTORCH_PATHS:
            groups.setdefault((r.language, PYTORCH_PATHS[r.runtime]), []).append(r)
    rows = []
    for (language, path), members in sorted(groups.items()):
        best = _best(members)
        if best is None:
            why = members[0].error or members[0].status
            rows.append([language, path, f"`{members[0].id}`", why, *[NOT_SHOWN] * 3])
            continue
        size = sizes.get(str(best.notes.get("artifact_file") or best.artifact or ""))
        seconds = exported.get(best.artifact or "")
        rows.append([
            language, path, f"`{best.id}`", us(best.median_ns),
            f"{best.load_ns / 1e6:.1f}" if best.load_ns is not None else NOT_SHOWN,
            f"{size / 1024:.1f}" if size else NOT_SHOWN,
            NOT_SHOWN if best.runtime == "torch.compile" or seconds is None else f"{seconds:.2f}",
        ])  # fmt: skip
    header = ["language", "path", "fastest driver", "µs/call", "load ms", "artifact KiB",
              "export s"]  # fmt: skip
    note = (
        "\nLoad time is the driver's own, with its model file read and prepared (for "
        "torch.compile it is the compile, which happens at load: it has no artifact of its own). "
        "Export s is how long `callbench export` took to write the artifact the row loads, "
        "from the trained model (for a user's program, `--torch` from the program; for "
        "AOTInductor: torch.export and the g++ compile; for ExecuTorch: torch.export, lowering "
        "and, for XNNPACK, importing ExecuTorch).\n\n" + AOTI_STATUS
    )
    traced = [r for r in records if r.notes.get("traced")]
    if traced:  # a program whose trace bakes its batch in: one trace a batch
        note += ("\n\nThe program's trace bakes its batch in, so its TorchScript is one trace "
                 "a batch: " + "; ".join(f"`{r.id}` ({r.notes['traced']})" for r in traced)
                 + ".")  # fmt: skip
    verdicts = compiled_paths_in_cpp(records)
    return table(header, rows) + "\n" + note + ("\n\n" + verdicts if verdicts else "")


def compiled_paths_in_cpp(records: Sequence[Record]) -> str:
    """Whether AOTInductor and ExecuTorch from C++ beat ONNX Runtime's best C++ row and
    cost at most half of TorchScript from C++, each ratio taken round by round."""
    # TorchScript from C++ is our call of the seed's row of that name.
    plain = seed_driver(TORCHSCRIPT_FROM_CPP, Call.OURS)
    torchscript = next((r for r in records if r.id == plain), None)
    onnxruntime = _best(_cpp(records, "onnxruntime"))
    lines = []
    for name, runtime in (("AOTInductor", "aotinductor"), ("ExecuTorch", "executorch")):
        best = _best(_cpp(records, runtime))
        if best is None:
            continue
        parts = []
        if onnxruntime is not None and (found := ratio(best, onnxruntime)) is not None:
            verdict = ("beats it" if found.below_one else "does not beat it" if found.above_one
                       else "ties with it (within the noise)")  # fmt: skip
            parts.append(f"against ONNX Runtime's best C++ row, `{best.id}` / "
                         f"`{onnxruntime.id}` is {found}: it {verdict}")  # fmt: skip
        if torchscript is not None and (found := ratio(best, torchscript)) is not None:
            half = "at most half" if found.interval[1] <= 0.5 else "not at most half"
            parts.append(f"against TorchScript from C++, `{best.id}` / `{plain}` is "
                         f"{found}: {half} of its cost")  # fmt: skip
        if parts:
            lines.append(f"- **{name} from C++**: " + "; ".join(parts) + ".")
    return "\n".join(lines)


def _engine(record: Record) -> str:
    return ENGINES.get(record.runtime, record.runtime)


def bindings(records: Sequence[Record]) -> str:
    """Every ONNX Runtime and OpenVINO row, as a multiple of the best C++ ONNX Runtime row.

    A row of the same engine at another version than the base's is marked: its
    ratio mixes what the binding costs with what the version changed.
    """
    base = _best(_cpp(records, "onnxruntime"))
    if base is None:
        return "No C++ ONNX Runtime row was measured in this run."
    rows: list[list[str]] = []
    mixed: dict[str, list[str]] = {}
    for r in sorted((r for r in records if r.runtime in BINDINGS and r.ok),
                    key=lambda r: r.median_ns):  # fmt: skip
        other = _engine(r) == _engine(base) and r.runtime_version != base.runtime_version
        if other:
            mixed.setdefault(r.runtime_version or "?", []).append(r.id)
        versus = f"{r.median_ns / base.median_ns:.2f}×" + (f" {MIXED}" if other else "")
        rows.append([f"`{r.id}`", r.language, f"{r.runtime} {r.runtime_version or ''}".strip(),
                     us(r.median_ns), versus])  # fmt: skip
    header = ["driver", "language", "library", "µs/call", f"× `{base.id}`"]
    text = table(header, rows)
    if mixed:
        named = "; ".join(f"{version}: {', '.join(f'`{d}`' for d in ids)}"
                          for version, ids in sorted(mixed.items()))  # fmt: skip
        text += (
            f"\n\n{MIXED} Another ONNX Runtime version than the base row's "
            f"({base.runtime_version}): {named}. Those ratios mix the binding's cost with what "
            f"the version changed. {NEWEST_SERVED}"
        )
    return text
