"""The report of a run on a model the user brought (``--onnx``): what the model is, how
its outputs were checked, and each language's cheapest way to call it.

Such a run has only the ONNX drivers, so the sections about our MLP (the seed's
table and puzzles, PyTorch today, the floors) are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from callbench.model.user_onnx import ORIGIN
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.report.format import one_line, table, us, us_interval

TITLE = "The model"


def brought(run: Run) -> dict[str, Any] | None:
    """What env.json says of the user's model; None for a run on ours."""
    found = run.env.get(ORIGIN)
    return found if isinstance(found, dict) else None


def heading(model: dict[str, Any]) -> str:
    """The report's title: the model's file name and the start of its sha256."""
    sha = str(model.get("sha256"))[:16]
    return f"# callbench report: `{model.get('file', '?')}` (sha256 `{sha}…`)"


def _shape(port: dict[str, Any]) -> str:
    dims = ", ".join(str(d) for d in port.get("shape") or [])
    return f"`{port.get('name')}` [{dims}] float32"


def description(model: dict[str, Any]) -> str:
    """Where the model came from, what it takes and gives, and how its outputs were checked."""
    tolerance = model.get("tolerance")
    told = f"{tolerance:.3g}" if isinstance(tolerance, int | float) else "?"
    lines = [
        f"- **File**: `{model.get('file')}`, {model.get('bytes', '?')} bytes, "
        f"sha256 `{model.get('sha256')}`; made by {model.get('producer') or 'an unnamed producer'},"
        f" opset {model.get('opset', '?')}. A copy sits in the run's `model/` folder.",
        f"- **Input** {_shape(model.get('input') or {})}; **output** "
        f"{_shape(model.get('output') or {})}.",
        f"- **Samples**: {model.get('inputs_from')}.",
        f"- **Reference**: {model.get('reference')}; the onnx package's reference evaluator "
        f"{model.get('cross_check')}.",
        f"- **Tolerance**: a driver's outputs may differ from the reference by at most {told} "
        f"({model.get('tolerance_rule')}); every row below met it before its time counted.",
    ]
    return "\n".join(lines)


def fastest_per_language(records: Sequence[Record]) -> str:
    """Each language's fastest verified row, against the fastest row of all."""
    ok = [r for r in records if r.ok]
    if not ok:
        return "No driver ran verified on this model."
    best = min(ok, key=lambda r: r.median_ns)
    rows = []
    for language in sorted({r.language for r in ok}):
        fastest = min((r for r in ok if r.language == language), key=lambda r: r.median_ns)
        rows.append([language, f"`{fastest.id}`",
                     f"{us(fastest.median_ns)} ({us_interval(fastest.interval_ns)})",
                     f"{fastest.median_ns / best.median_ns:.2f}×"])  # fmt: skip
    rows.sort(key=lambda row: float(row[3].rstrip("×")))
    text_after = (
        "\n\nRatios of medians; the ranked table below says which differences are significant "
        "and above the noise threshold (rows marked ≈ are ties)."
    )
    failed = [r for r in records if not r.ok]
    text = table(["language", "fastest driver", "µs per call (95% interval)",
                  f"× `{best.id}` ({us(best.median_ns)} µs)"], rows) + text_after  # fmt: skip
    if failed:
        text += "\n\nNot timed: " + "; ".join(
            f"`{r.id}` {r.status} ({one_line(r.error) or 'no reason'})"
            for r in failed
        ) + "."  # fmt: skip
    return text
