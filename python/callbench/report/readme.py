"""The README's generated blocks: every measured figure in README.md sits between
``<!-- callbench:KIND run=ID[,ID...] -->`` and ``<!-- /callbench -->``, and
``callbench report --readme`` writes each block's body from the committed runs it names.
A test writes them again and fails on any difference, so a figure cannot drift from its run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbench.errors import RunError
from callbench.paths import RUNS
from callbench.records.phases import recorded, summarised
from callbench.records.store import Run, find_run, load_run
from callbench.report.blocks.format import table, us
from callbench.report.sections import answer, cpu_or_gpu, gpu_floor, model_size, peers, seed

# A block's markers each stand on a line of their own (one quoted in prose is not a block).
BLOCK = re.compile(
    r"^<!-- callbench:(?P<kind>[a-z-]+) run=(?P<runs>[^ ]+) -->\n"
    r"(?P<body>.*?)"
    r"^<!-- /callbench -->$",
    re.S | re.M,
)
OPENING = re.compile(r"^<!-- callbench:", re.M)
# What a measured figure looks like in prose: a time per call, a ratio, a count, a duration,
# a throughput. Settings (10%, 2 s, 10,000 calls) are not figures and do not match.
MEASURED = re.compile(
    r"\d[\d,.]*\s?(?:µs|ns)\b|\d[\d,.]*×|\d[\d,.]* instructions|\d+ min\b|GFLOP/s"
    # a table cell that is a decimal (not a version: one point) or a thousands-grouped count
    r"|\|\s*(?:\d+\.\d+|\d{1,3}(?:,\d{3})+)\s*(?:\(|\|)"
)
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    kind: str
    runs: tuple[str, ...]
    body: str
    start: int  # where the body starts in the text
    end: int


def blocks(text: str, source: Path) -> list[Block]:
    """Every block of ``text``; RunError naming ``source`` for an opening left unclosed."""
    found = [
        Block(m["kind"], tuple(m["runs"].split(",")), m["body"], m.start("body"), m.end("body"))
        for m in BLOCK.finditer(text)
    ]
    if len(found) != len(OPENING.findall(text)):
        raise RunError(f"{source}: a `<!-- callbench:` block without its `<!-- /callbench -->`")
    return found


def figures_outside(text: str) -> list[tuple[int, str]]:
    """(line number, line) of each line outside the blocks and code that holds a measured
    figure: one a run did not write, which nothing keeps from drifting."""
    spans = [(m.start(), m.end()) for m in BLOCK.finditer(text)]
    spans += [(m.start(), m.end()) for m in FENCE.finditer(text)]
    found, at = [], 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        inside = any(start <= at < end for start, end in spans)
        if not inside and MEASURED.search(line):
            found.append((number, line.rstrip("\n")))
        at += len(line)
    return found


def _commit(run: Run) -> str:
    git = run.env.get("git") or {}
    commit = str(git.get("commit") or "")[:7] or "not recorded"
    return commit + (" with uncommitted changes" if git.get("dirty") else "")


def _protocol(run: Run) -> str:
    found = run.env.get("protocol") or {}
    rounds = found.get("rounds", "?")
    if found.get("name") == "fixed":
        return f"{rounds} rounds of {found.get('calls', '?'):,} calls"
    return f"{rounds} interleaved rounds of about {found.get('round_time_s', '?')} s a driver"


def _answer(runs: Sequence[Run]) -> str:
    run = runs[0]
    drivers = run.drivers
    head = (
        f"Run `{run.name}` ({run.env.get('cpu', '?')}, {run.env.get('cores', '?')} cores, "
        f"commit `{_commit(run)}`; our 2→8→8→1 MLP, one sample a call, one thread, "
        f"{_protocol(run)}, every output verified). {answer.DEFINITION}"
    )
    parts = [head, "", answer.choice_table(drivers)]
    floor = answer.floor_line(drivers)
    if floor:
        parts += ["", floor + " " + answer.TIE_WORDS]
    timed = sum(len(r.rounds) for r in drivers)
    flagged = sum(r.flagged_rounds for r in drivers)
    parts += ["", f"{flagged:,} of {timed:,} timed rounds were flagged and re-run (the driver "
                  "lacked the CPU, or the contention probe ran slow): on a shared machine, read "
                  "the ratios within the run before its absolute times."]  # fmt: skip
    return "\n".join(parts)


def _batch(runs: Sequence[Run]) -> str:
    run = runs[0]
    lever = answer.batch_lever(run.sweeps.get("batch") or {}, run.drivers)
    if lever is None:
        return f"Run `{run.name}` has no batch sweep at batches 1, 100 and 10,000."
    return f"{answer.LEVER_INTRO} Run `{run.name}`.\n\n{lever}"


def _seed(runs: Sequence[Run]) -> str:
    run = runs[0]
    return f"Run `{run.name}`:\n\n" + seed.seed_table({r.id: r for r in run.drivers})


def _took(runs: Sequence[Run]) -> str:
    """One line a run: its phases, as the console's last line gave them."""
    lines = []
    for run in runs:
        phases = recorded(run.env)
        lines.append(f"- `{run.name}`: {summarised(phases) if phases else 'no phases recorded'}.")
    return "\n".join(lines)


def _newer(runs: Sequence[Run]) -> str:
    run = runs[0]
    return f"Run `{run.name}`:\n\n{peers.newer_runtimes(run.drivers)}"


def _widths(runs: Sequence[Run]) -> str:
    run = runs[0]
    points = run.sweeps.get("width")
    if not points:
        return f"Run `{run.name}` has no width sweep."
    crossovers, _ = model_size.crossover_table(points)
    return f"Run `{run.name}`:\n\n{crossovers}"


def _callers(runs: Sequence[Run]) -> str:
    """Per run, each language's best way to use the run's cores: served within the run's p99
    bound where the run has a serving phase, else called from as many callers as its
    machine has cores (its model named, for a user's)."""
    from callbench.report.sections import callers_screen, many_callers, served_screen
    from callbench.report.sections.serving_at_a_rate import KIND as SERVING
    from callbench.report.sections.user_model import brought

    parts = []
    for run in runs:
        cores = int(run.env.get("cores") or 2)
        model = brought(run)
        what = f"`{model.get('file', '?')}`" if model else "our MLP"
        machine = (f"Run `{run.name}` ({what}, {run.env.get('cpu', '?')}, {cores} cores, "
                   f"commit `{_commit(run)}`")  # fmt: skip
        served = served_screen.table(run.sweeps.get(SERVING), cores)
        if served:
            parts += [f"{machine}; {served_screen.head(run.sweeps.get(SERVING))}):", "",
                      served, ""]  # fmt: skip
            continue
        every = many_callers.points(run.sweeps.get("callers"), run.sweeps.get("processes"))
        how = "batch 1, one intra-op thread a caller, every caller's outputs verified"
        unserved = served_screen.none_served(run.sweeps.get(SERVING))
        head = (f"{machine}): {unserved} As many callers as its cores instead, in a closed "
                f"loop ({how}):" if unserved else f"{machine}; {how}):")  # fmt: skip
        body = callers_screen.table(every, cores) if every else "no callers sweep."
        parts += [head, "", body, ""]
    return "\n".join(parts)


def _serving(runs: Sequence[Run]) -> str:
    """Per run, each row served at a rate within the run's p99 bound beside its closed loop."""
    from callbench.report.sections import serving_at_a_rate as serving
    from callbench.report.sections.user_model import brought

    parts = []
    for run in runs:
        rows = serving.served(run.sweeps.get(serving.KIND))
        model = brought(run)
        what = f"`{model.get('file', '?')}`" if model else "our MLP"
        bounds = sorted({r.serving["bound_ns"] for r in rows if r.serving})
        within = " and ".join(serving.bound_text(b) for b in bounds) or "?"
        searches = sorted({r.serving.get("repeats", 0) for r in rows if r.serving})
        how = ""
        if len(searches) == 1 and searches[0] > 1:  # repeated searches (their records say how)
            window_s = next(r.serving["windows_rule"]["window_s"] for r in rows if r.serving)
            how = (f"; the rate the median of {searches[0]} searches [its 95% interval], points "
                   f"cut into windows of {window_s:g} s")  # fmt: skip
        head = (f"Run `{run.name}` ({what}, {run.env.get('cpu', '?')}, "
                f"{run.env.get('cores', '?')} cores, commit `{_commit(run)}`; Poisson arrivals, "
                f"p99 within {within}{how}, the last point's outputs verified):")  # fmt: skip
        parts += [head, "", serving.screen(rows) if rows else "no row served at a rate.", ""]
    return "\n".join(parts)


def _cpu_or_gpu(runs: Sequence[Run]) -> str:
    run = runs[0]
    found = cpu_or_gpu.section(run.records)
    floor = gpu_floor.section(run.records)
    device = run.env.get("cuda_device") or "a GPU"
    parts = [f"Run `{run.name}` ({device}, commit `{_commit(run)}`):", "", found or "no GPU rows."]
    return "\n".join(parts + (["", floor] if floor else []))


def _ports(model: dict[str, Any]) -> str:
    """``float32 [3, 32, 32] → float32 [10]``: each input and output, its batch left out."""

    def said(ports: object) -> str:
        listed = ports if isinstance(ports, list) else []
        return ", ".join(f"{p.get('dtype')} {list(p.get('shape', []))[1:]}" for p in listed)

    return f"{said(model.get('inputs'))} → {said(model.get('outputs'))}"


def _your_models(runs: Sequence[Run]) -> str:
    """Each language's cheapest verified call on each user's model, one run a row."""
    from callbench.report.sections.user_model import brought

    languages: list[str] = []
    rows: dict[str, dict[str, float]] = {}
    for run in runs:
        model = brought(run) or {}
        label = f"`{model.get('file', '?')}` {_ports(model)} (`{run.name}`)"
        best: dict[str, float] = {}
        for r in run.drivers:
            if r.ok and r.median_ns < best.get(r.language, float("inf")):
                best[r.language] = r.median_ns
        rows[label] = best
        languages += [x for x in best if x not in languages]
    return "Each language's cheapest verified call, µs at batch 1:\n\n" + table(
        ["model: inputs → outputs (run)", *languages],
        [[label, *(us(best[x]) if x in best else "–" for x in languages)]
         for label, best in rows.items()],
    )  # fmt: skip


KINDS: dict[str, Callable[[Sequence[Run]], str]] = {
    "answer": _answer,
    "batch": _batch,
    "seed": _seed,
    "took": _took,
    "newer": _newer,
    "widths": _widths,
    "cpu-or-gpu": _cpu_or_gpu,
    "callers": _callers,
    "serving": _serving,
    "your-models": _your_models,
}


def rewrite(
    text: str, source: Path, runs_dir: Path = RUNS, loaded: dict[str, Run] | None = None
) -> str:
    """``text`` with every block's body written again from its runs (``loaded``: runs
    already read, by name, kept for the next call)."""
    loaded = {} if loaded is None else loaded

    def run(name: str) -> Run:
        if name not in loaded:
            loaded[name] = load_run(find_run(name, runs_dir))
        return loaded[name]

    out, at = [], 0
    for block in blocks(text, source):
        if block.kind not in KINDS:
            raise RunError(f"{source}: unknown block `callbench:{block.kind}` (known: "
                           f"{', '.join(KINDS)})")  # fmt: skip
        body = KINDS[block.kind]([run(name) for name in block.runs]).rstrip("\n") + "\n"
        out += [text[at : block.start], body]
        at = block.end
    return "".join(out) + text[at:]


def write_readme(path: Path, runs_dir: Path = RUNS) -> bool:
    """Write ``path``'s blocks again; True when anything changed."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise RunError(f"{path}: cannot read: {exc.strerror or exc}") from None
    fresh = rewrite(text, path, runs_dir)
    if fresh != text:
        path.write_text(fresh)
    return fresh != text
