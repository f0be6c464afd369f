"""The report of a run on a model the user brought (``--onnx`` or ``--torch``): what the
model is, how its outputs were checked, and each language's cheapest way to call it.

Such a run has only the ONNX drivers, so the sections about our MLP (the seed's
table and puzzles, PyTorch today, the floors) are left out.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from callbench.model import user_onnx, witnesses
from callbench.model.user_onnx import ORIGIN
from callbench.model.user_torch import KIND as TORCH_KIND
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.report.blocks.format import one_line, table, us, us_interval

TITLE = "The model"


def brought(run: Run) -> dict[str, Any] | None:
    """What env.json says of the user's model; None for a run on ours."""
    found = run.env.get(ORIGIN)
    return found if isinstance(found, dict) else None


def heading(model: dict[str, Any]) -> str:
    """The report's title: the model's file name and the start of its sha256, and whether
    its reference is unconfirmed (taken with --unwitnessed)."""
    sha = str(model.get("sha256"))[:16]
    unconfirmed = f": {witnesses.UNCONFIRMED}" if model.get(user_onnx.UNCONFIRMED) else ""
    return f"# callbench report: `{model.get('file', '?')}` (sha256 `{sha}…`){unconfirmed}"


# Bytes a value of each dtype takes (contract 3's dtypes).
ITEM_BYTES = {"float32": 4, "float16": 2, "float64": 8, "int64": 8, "int32": 4, "int8": 1,
              "uint8": 1, "bool": 1}  # fmt: skip


def _port_row(kind: str, port: dict[str, Any]) -> list[str]:
    dims = port.get("shape") or []
    per_sample = 1
    for d in dims[1:]:
        per_sample *= d if isinstance(d, int) else 0
    size = per_sample * ITEM_BYTES.get(str(port.get("dtype")), 0)
    shape = "[" + ", ".join(str(d) for d in dims) + "]"
    bytes_ = f"{size:,}" if size else "set by the inputs"
    return [kind, f"`{port.get('name')}`", str(port.get("dtype")), shape, bytes_]


def ports_table(model: dict[str, Any]) -> str:
    """Each input and output: its name, dtype, declared shape and bytes a sample."""
    rows = [_port_row("input", p) for p in model.get("inputs") or []]
    rows += [_port_row("output", p) for p in model.get("outputs") or []]
    return table(["", "name", "dtype", "shape (batch first)", "bytes a sample"], rows)


def artifacts_table(model: dict[str, Any]) -> str:
    """Each artifact derived from a user's program: its status, export seconds and size (a
    trace made one a batch: its batches, and why one trace of every batch would not do; an
    ExecuTorch program: the largest batch it was planned for)."""
    rows = []
    for name, made in (model.get("artifacts") or {}).items():
        ok = made.get("status") == "ok"
        status = "made" if ok else f"{made.get('status')}: {one_line(made.get('error'))}"
        if ok and made.get("traced_at"):  # a trace that bakes its batch in: one a batch
            listed = ", ".join(f"{b:,}" for b in made["traced_at"])
            status = (
                f"made as one trace a batch, at batch {listed} (each {made.get('note')}), "
                f"as one trace of every batch failed: {one_line(made.get('why'))}"
            )
        if ok and made.get("largest_batch"):  # ExecuTorch planned its memory up to it
            status = f"made, planned for batches up to {made['largest_batch']:,}"
        size = f"{made['bytes']:,}" if ok else "–"
        rows.append([f"`{name}`", status, f"{made.get('seconds', '?')}", size])
    return table(["artifact", "status", "export s", "bytes"], rows)


def _origin(model: dict[str, Any]) -> list[str]:
    file = (f"- **File**: `{model.get('file')}`, {model.get('bytes', '?')} bytes, "
            f"sha256 `{model.get('sha256')}`")  # fmt: skip
    if model.get("kind") == TORCH_KIND:
        return [
            f"{file}; a {TORCH_KIND}, {model.get('producer')}. It was checked before torch read "
            "it (no pickled weight, constant or object; sample inputs loaded with "
            "`weights_only=True`), and a copy sits in the run's `model/` folder.",
            "- **Artifacts made from it** (into the run's `model/` folder; a driver of a failed "
            "one is skipped with the exporter's first line):",
            "",
            artifacts_table(model),
            "",
        ]
    return [f"{file}; made by {model.get('producer') or 'an unnamed producer'}, opset "
            f"{model.get('opset', '?')}. A copy sits in the run's `model/` folder."]  # fmt: skip


def _old_wording(checked: str) -> str:
    """A manifest written before witnesses were named said the evaluator's verdict alone."""
    if checked.startswith(("agrees ", "skipped: ")):
        return f"the onnx reference evaluator {checked.removeprefix('skipped: ')}"
    return checked


def description(model: dict[str, Any]) -> str:
    """Where the model came from, what it takes and gives, and how its outputs were checked."""
    tolerance = model.get("tolerance")
    told = f"{tolerance:.3g}" if isinstance(tolerance, int | float) else "?"
    checked = model.get("cross_check")
    lines = [
        *_origin(model),
        f"- **Inputs and outputs** ({len(model.get('inputs') or [])} and "
        f"{len(model.get('outputs') or [])}; batch dimension `{model.get('batch')}`):",
        "",
        ports_table(model),
        "",
        f"- **Samples**: {model.get('inputs_from')}.",
        f"- **Reference**: {model.get('reference')}"
        + (f"; cross-checked: {_old_wording(checked)}." if checked else "."),
        f"- **Tolerance**: a driver's outputs may differ from the reference by at most {told} "
        f"for the first output ({model.get('tolerance_rule')}); every row below met each "
        "output's before its time counted.",
    ]
    return "\n".join(lines)


DECIDES = "What decides a call's cost here"


def threads_line(threads: Mapping[int, Sequence[Record]]) -> str | None:
    """What more threads did to each swept row's call (from the run's thread sweep)."""
    counts = sorted(threads)
    if len(counts) < 2:
        return None
    one, most = counts[0], counts[-1]
    first = {r.id: r for r in threads[one] if r.ok}
    said = []
    for r in sorted((r for r in threads[most] if r.ok), key=lambda r: r.id):
        if r.id in first:
            said.append(f"`{r.id}` {first[r.id].median_ns / r.median_ns:.2f}× (batch {r.batch})")
    if not said:
        return None
    return (
        f"Threads matter as the runtime does: from {one} to {most} threads a call got "
        f"faster by " + ", ".join(said) + " (the thread sweep below)."
    )


def what_decides(
    records: Sequence[Record], threads: Mapping[int, Sequence[Record]] | None = None
) -> str:
    """Each runtime's verified rows (its bindings from every language) side by side: its
    fastest and slowest row and their spread, against the fastest runtime; then which of the
    two, the runtime or the binding, moves a call's cost more in this run; and what threads
    did, where the run swept them."""
    from callbench.runtimes import engine

    ok = [r for r in records if r.ok]
    if not ok:
        return "No driver ran verified on this model."
    by_engine: dict[str, list[Record]] = {}
    for r in ok:
        by_engine.setdefault(engine(r.runtime), []).append(r)
    best = min(ok, key=lambda r: r.median_ns)
    rows, spreads, between = [], [], 1.0
    ranked = sorted(by_engine.items(), key=lambda kv: min(r.median_ns for r in kv[1]))
    for runtime, rs in ranked:
        fast, slow = min(rs, key=lambda r: r.median_ns), max(rs, key=lambda r: r.median_ns)
        spread = slow.median_ns / fast.median_ns
        if len(rs) > 1:
            spreads.append(spread)
        between = max(between, fast.median_ns / best.median_ns)
        rows.append([runtime, str(len(rs)), str(len({r.language for r in rs})),
                     f"`{fast.id}` {us(fast.median_ns)}", f"`{slow.id}` {us(slow.median_ns)}",
                     f"{spread:.2f}×", f"{fast.median_ns / best.median_ns:.2f}×"])  # fmt: skip
    header = ["runtime", "rows", "languages", "fastest row, µs", "slowest row, µs",
              "slowest ÷ fastest", f"fastest × `{best.id}`"]  # fmt: skip
    # The typical runtime's spread: one odd row (ExecuTorch's portable kernels beside its
    # XNNPACK ones) shows in the table without deciding the verdict.
    within = statistics.median(spreads) if spreads else 1.0
    if between > within:
        verdict = (f"The runtime decides here, not the language or the binding: the rows of one "
                   f"runtime typically lie within {within:.2f}× of each other (the median "
                   f"runtime's spread), from every language that calls it, while the runtimes' "
                   f"fastest rows differ by up to {between:.2f}×.")  # fmt: skip
    else:
        verdict = (f"The binding matters here as much as the runtime: the rows of one runtime "
                   f"typically differ by {within:.2f}× from binding to binding (the median "
                   f"runtime's spread), the runtimes' fastest rows by up to "
                   f"{between:.2f}×.")  # fmt: skip
    more = threads_line(threads or {})
    verdict += f" {more}" if more else ""
    return f"{verdict} Medians of this run, one sample a call.\n\n{table(header, rows)}"


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
        # Rows that share a reason (the other languages' kits on a contract-3 model) say it once.
        reasons: dict[tuple[str, str], list[str]] = {}
        for r in failed:
            reasons.setdefault((r.status, one_line(r.error) or "no reason"), []).append(r.id)
        text += "\n\nNot timed: " + "; ".join(
            f"{', '.join(f'`{i}`' for i in ids)} {status} ({why})"
            for (status, why), ids in reasons.items()
        ) + "."  # fmt: skip
    return text


SEED_QUESTION = "The seed's question for this model"


def is_torch(model: dict[str, Any]) -> bool:
    """A run on a user's torch.export program (``--torch``)."""
    return model.get("kind") == TORCH_KIND


def seed_question(records: Sequence[Record]) -> str:
    """A ``--torch`` run: each language's fastest row of each PyTorch path (and of ONNX
    Runtime through the program's ONNX export), as a speed-up over the program called as
    the user calls it in Python (our call of the seed's Python row), with its interval."""
    from callbench.registry import seed_driver
    from callbench.report.blocks.ratios import ratio
    from callbench.report.sections.today import ENGINES, PYTORCH_PATHS
    from callbench.roles import PYTHON_MODULE, Call

    base_row = seed_driver(PYTHON_MODULE, Call.OURS)

    by_id = {r.id: r for r in records}
    base = by_id.get(base_row)
    if base is None or not base.ok:
        return f"`{base_row}` did not run verified here, so there is no base to compare with."
    best: dict[tuple[str, str], Record] = {}
    for r in records:
        # A binding of ONNX Runtime (Java's FFM row, Node.js's) is that path too.
        path = PYTORCH_PATHS.get(ENGINES.get(r.runtime, r.runtime))
        if path is None or not r.ok:
            continue
        key = (r.language, path)
        if key not in best or r.median_ns < best[key].median_ns:
            best[key] = r
    rows = []
    for (language, path), r in sorted(best.items(), key=lambda kv: kv[1].median_ns):
        speedup = ratio(base, r)
        cell = str(speedup) if speedup is not None else "–"
        median = f"{us(r.median_ns)} ({us_interval(r.interval_ns)})"
        rows.append([language, path, f"`{r.id}`", median, cell])
    intro = (
        "The seed asked which way to call its PyTorch model: eager, TorchScript, from Java or "
        "from C++. For this program, each language's fastest row of each path, as a speed-up "
        f"over `{base_row}` (the program's module called as a Python user calls it), paired "
        "round by round with its 95% interval; rows not listed did not run on it here."
    )
    header = ["language", "path", "fastest row", "µs per call (95% interval)",
              f"speed-up over `{base_row}`"]  # fmt: skip
    return intro + "\n\n" + table(header, rows)
