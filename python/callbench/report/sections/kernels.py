"""The report's kernel section: our figures per kernel, beside the seeds'.

``kernel_section(records, env)`` takes the records of one run (any kind:
driver records are ignored) and returns Markdown. Times are medians of the
repeats with their 95% interval (``Record.interval_ns``); "x base" is the ratio to the reference
implementation of the same operation in the same run, the figure that
carries over between machines, shown beside the seed's own ratio. The
batched dot products have no timed reference (they are checked against a
float64 NumPy computation), so their base is ``bmm``, the seed's baseline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callbench.kernels.kernel import FAMILIES
from callbench.kernels.seeds import BY_KERNEL, FIGURES, Seed
from callbench.records.record import Record

TITLES = {
    "elementwise": "Elementwise math (seed 000)",
    "batchdot": "Batched dot products (seed 001)",
    "cuda": "CUDA: torch, host-to-device copies, CuPy (seeds 000, 001, 003)",
}
HEADER = (
    "| kernel | runtime | shape | threads | median ms | 95% interval ms | x base "
    "| max abs err | status | seed ms | seed x base | notes |"
)
RULE = "|" + "---|" * HEADER.count(" | ") + "---|"
APPENDIX = "Appendix: kernels, the seeds' micro-benchmarks"


def _ms(ns: float) -> str:
    """Milliseconds to 4 significant digits, without exponent for everyday sizes."""
    ms = ns / 1e6
    if ms >= 100:
        return f"{ms:.0f}"
    return f"{ms:.4g}" if ms >= 1e-3 else f"{ms:.2e}"


def _median(record: Record) -> float | None:
    """Only a checked (ok) record has a time to show."""
    return record.median_ns if record.ok else None


def _label(record: Record, name: str) -> Any:
    return (record.kernel or {}).get(name)


def _shape(record: Record) -> tuple[int, ...]:
    return tuple(_label(record, "shape") or ())


def _ratio(value: float | None, base: float | None) -> str:
    return "—" if value is None or base is None or base <= 0 else f"{value / base:.3g}"


def _seed_cells(record: Record, footnotes: list[str]) -> tuple[str, str]:
    seed = BY_KERNEL.get(record.id)
    if seed is None:
        return "—", "—"
    cell = f"{seed.ms:g}"
    if _shape(record) != seed.seed.shape:
        mark = "†"
        note = (
            f"† the seed measured {'x'.join(map(str, seed.seed.shape))}; this run "
            f"{'x'.join(map(str, _shape(record)))}: compare the ratios, not the times."
        )
        if note not in footnotes:
            footnotes.append(note)
        cell += mark
    base_id = _base_id(record)
    ref_seed = BY_KERNEL.get(base_id) if base_id else None
    ratio = "—" if ref_seed is None else f"{seed.ms / ref_seed.ms:.3g}"
    if seed.note:
        cell += f" ({seed.note})"
    return cell, ratio


# Display order: operations as the seeds introduce them, the reference impl first.
OP_ORDER = (
    "exp", "log", "erf", "tanh", "logsumexp", "batchdot", "batchdot-backward", "h2d",
    "transpose-scale", "squared-diff", "l2norm",
)  # fmt: skip
IMPL_ORDER = (
    "numpy", "numpy-out", "scipy", "scipy-out", "numexpr", "numexpr-out", "torch", "torch-out",
    "torch-copy", "torch-roundtrip", "bmm", "mulsum", "einsum", "matmul", "vecdot", "cupy",
    "cupy-pool",
)  # fmt: skip


def _rank(order: tuple[str, ...], name: object) -> tuple[int, str]:
    return (order.index(name), "") if name in order else (len(order), str(name))


def _sort_key(record: Record) -> tuple[tuple[int, str], tuple[int, str]]:
    return _rank(OP_ORDER, _label(record, "op")), _rank(IMPL_ORDER, _label(record, "impl"))


def _base_id(record: Record) -> str | None:
    """The kernel this one's time is compared with: its reference, or bmm for batchdot."""
    ref = _label(record, "reference")
    if isinstance(ref, str) and ref.startswith("kernel-"):
        return ref
    impl = str(_label(record, "impl"))
    if str(_label(record, "op") or "").startswith("batchdot") and record.id.endswith("-" + impl):
        return record.id[: -len(impl)] + "bmm"
    return None


def _status(record: Record) -> str:
    if record.ok:
        return "ok"
    return f"{record.status}: {record.error or 'no reason given'}"


def _row(record: Record, medians: Mapping[str, float | None], foot: list[str]) -> str:
    median = _median(record)
    if median is not None:
        low, high = record.interval_ns
        interval = f"{_ms(low)}-{_ms(high)}" + (" ⚠" if record.wide else "")
    else:
        interval = "—"
    base_id = _base_id(record)
    base = medians.get(base_id) if base_id else None
    ratio = "1" if base_id == record.id and median is not None else _ratio(median, base)
    err = record.max_abs_error
    seed_ms, seed_ratio = _seed_cells(record, foot)
    note = record.notes.get("note")
    cells = [
        f"`{record.id}`",
        f"{record.runtime} {record.runtime_version or ''}".strip(),
        "x".join(str(d) for d in _shape(record)) + f" {_label(record, 'dtype') or ''}",
        str(record.threads),
        _ms(median) if median is not None else "—",
        interval,
        ratio,
        "—" if err is None else f"{err:.2g}",
        _status(record),
        seed_ms,
        seed_ratio,
        str(note or "").replace("|", "\\|"),
    ]
    return "| " + " | ".join(cells) + " |"


LIBRARIES = ("numpy", "scipy", "numexpr", "torch", "cupy")


def _env_line(env: Mapping[str, Any]) -> str:
    """One line from our env.json or the harness's richer one (their keys differ a little)."""
    found = env.get("versions") or env.get("packages") or {}
    versions = found if isinstance(found, Mapping) else {}
    libs = ", ".join(f"{k} {versions[k]}" for k in LIBRARIES if versions.get(k))
    cores = env.get("cpu_count") or env.get("cores") or "?"
    parts = [f"CPU: {env.get('cpu') or 'unknown'} ({cores} logical cores)"]
    if env.get("cuda_device"):
        parts.append(f"GPU: {env['cuda_device']}")
    if libs:
        parts.append(libs)
    return "; ".join(parts) + "."


def _seed_lines() -> list[str]:
    seen: list[Seed] = []
    for figure in FIGURES:
        if figure.seed not in seen:
            seen.append(figure.seed)
    return [
        f"- `{s.file}`: {s.title}. Hardware: {s.hardware}. Software: {s.software}. "
        f"Shape {'x'.join(map(str, s.shape))} {s.dtype}."
        for s in seen
    ]


def _on_device(record: Record) -> bool:
    return bool(_label(record, "device") == "cuda")


def _table(
    rows: Sequence[Record], medians: Mapping[str, float | None], foot: list[str]
) -> list[str]:
    return [HEADER, RULE, *(_row(r, medians, foot) for r in sorted(rows, key=_sort_key))]


def kernel_section(
    records: Sequence[Record], env: Mapping[str, Any], cuda_elsewhere: str = ""
) -> str:
    """The appendix for the kernel records of one run ("" when there are none).

    ``cuda_elsewhere`` names where another host ran the CUDA rows; given, and none of
    this run's ran, the CUDA table keeps this host's rows only and points there.
    """
    kernels = [r for r in records if r.kind == "kernel"]
    if not kernels:
        return ""
    medians = {r.id: _median(r) for r in kernels}
    footnotes: list[str] = []
    lines = [
        f"## {APPENDIX}",
        "",
        "Each kernel is one call (e.g. `np.exp` of the whole array), timed in repeats after "
        "a warm-up; every result was checked against the reference implementation "
        "(max abs error), and only checked results have times. Median of the repeats "
        "with its 95% interval (⚠: wider than 10% of the median), in ms per call; x base "
        "is the ratio of medians to the operation's reference "
        "implementation in this run (NumPy / SciPy; `bmm` for the batched dot products), "
        "the figure to compare with the seed's. The seeds used each library's default "
        "thread count (numexpr and torch: all cores), so their ratios differ from "
        "single-threaded ones.",
        "",
        _env_line(env),
    ]
    for family in FAMILIES:
        rows = [r for r in kernels if _label(r, "family") == family]
        if not rows:
            continue
        lines += ["", f"### {TITLES[family]}", ""]
        device_rows = [r for r in rows if _on_device(r)]
        if cuda_elsewhere and device_rows and not any(r.ok for r in device_rows):
            reasons = sorted({_status(r) for r in device_rows})
            lines += [f"This host's {len(device_rows)} CUDA rows did not run "
                      f"({'; '.join(reasons)}); {cuda_elsewhere}. Its CPU rows:", ""]  # fmt: skip
            rows = [r for r in rows if not _on_device(r)]
        lines += _table(rows, medians, footnotes)
    lines += [""] + footnotes + (["", "Seeds:"] if footnotes else ["Seeds:"]) + _seed_lines()
    return "\n".join(lines) + "\n"


def _host_line(env: Mapping[str, Any]) -> str:
    system = env.get("platform") or env.get("os") or "?"
    return (f"Host `{env.get('host') or '?'}`, {system}, Python {env.get('python') or '?'}, "
            f"{env.get('threads') or 1} thread(s) per library.")  # fmt: skip


def second_host(run_name: str, env: Mapping[str, Any]) -> str:
    """A second host told apart by its device, not its host name (both may be "vm")."""
    device = env.get("cuda_device") or env.get("cpu") or "another host"
    return f"{device}, run `{run_name}`"


def second_host_section(run_name: str, records: Sequence[Record], env: Mapping[str, Any]) -> str:
    """A kernels-only run from another machine (a GPU host): its rows beside the seeds'.

    Its times are that machine's, so nothing is divided by the first host's; x base
    is taken within the run, and the seed's columns are what its rows compare with.
    """
    kernels = [r for r in records if r.kind == "kernel"]
    if not kernels:
        return ""
    medians = {r.id: _median(r) for r in kernels}
    footnotes: list[str] = []
    lines = [
        f"### The CUDA rows on a second host: {second_host(run_name, env)}",
        "",
        "A run of this project's `callbench kernels` on another machine, merged here as "
        "a second host: its times are that machine's and compare with the seeds' GPU "
        "figures (same shape where no † says otherwise), not with the tables above. "
        "x base is within this run (— where the operation's reference did not run there).",
        "",
        f"{_env_line(env)} {_host_line(env)}",
        "",
        *_table(kernels, medians, footnotes),
    ]
    lines += ["", *footnotes] if footnotes else []
    return "\n".join(lines) + "\n"
