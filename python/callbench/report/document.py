"""report.md put together: one section per subject for each run, charts beside it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from callbench.records.store import Run
from callbench.report import charts
from callbench.report.blocks import tables
from callbench.report.sections import (
    answer,
    callers_screen,
    cores_within_bound,
    coverage,
    cpu_or_gpu,
    gpu_floor,
    how_measured,
    many_callers,
    model_size,
    peers,
    phases_table,
    puzzles,
    runtime_defaults,
    seed,
    serving_at_a_rate,
    sweeps,
    today,
    user_model,
    ways_of_the_cores,
)
from callbench.report.sections.counts import count_section, trend, trend_text
from callbench.report.sections.kernels import (
    APPENDIX,
    kernel_section,
    second_host,
    second_host_section,
)
from callbench.report.sections.ladder import ladder_section

CHARTS = "charts"


def _made_at(run: Run) -> str:
    git = run.env.get("git") or {}
    if not git.get("commit"):
        return "its commit not recorded"
    dirty = " with uncommitted changes" if git.get("dirty") else ""
    return f"commit `{git['commit']}`{dirty}"


def _machine(run: Run) -> str:
    """CPU, and the GPU where the run had one: two hosts may share a host name. A run made
    before env.json said so names its GPU in the GPU rows' records."""
    recorded = (
        str(r.notes["device"]) for r in run.records if cpu_or_gpu.on_gpu(r) and "device" in r.notes
    )
    gpu = run.env.get("cuda_device") or next(recorded, None)
    return f"{run.env.get('cpu', '?')}" + (f", GPU {gpu}" if gpu else "")


def _versions(run: Run) -> str:
    """Each runtime's version(s) in the run's records, for telling runs apart."""
    found: dict[str, set[str]] = {}
    for r in run.records:
        if r.sweep is not None:
            continue
        if r.runtime_version:
            found.setdefault(r.runtime, set()).add(r.runtime_version)
    return "; ".join(f"{name} {', '.join(sorted(v))}" for name, v in sorted(found.items()))


def _intro(runs: Sequence[Run]) -> str:
    closing = (
        "Every time below counts only because the driver's outputs matched `reference.f32`. "
        "Absolute times hold for one machine; compare drivers by their ratios within a run."
    )
    if len(runs) == 1:
        run = runs[0]
        return (f"Made from run `{run.name}` (host `{run.host}`, {_machine(run)}) "
                f"at {_made_at(run)}. {closing}")  # fmt: skip
    lines = [f"Made from {len(runs)} runs, each its own machine's. {closing}", ""]
    lines += [f"- `{run.name}`: host `{run.host}`, {_machine(run)}, {_made_at(run)}."
              for run in runs]  # fmt: skip
    return "\n".join(lines)


def _driver_sections(run: Run, title: str, chart_dir: Path) -> list[str]:
    if not run.drivers:
        return ["", f"## Cost per call, one sample a call{title}", "",
                "No driver records in this run."]  # fmt: skip
    by_id = {r.id: r for r in run.drivers}
    chart = charts.per_call(run.drivers, run.name, chart_dir / f"{run.name}-per-call.png")
    timed = [
        "", f"## Cost per call, one sample a call{title}", "", how_measured.timing(run), "",
        f"![per-call cost, log scale]({CHARTS}/{chart.name})", "",
        tables.driver_table(run.drivers),
        "", f"### Each row's other figures{title}", "", tables.details_table(run.drivers),
        "", "Every figure of every row, one column each, is in `figures.csv` beside this report.",
    ]  # fmt: skip
    model = user_model.brought(run)
    if model is not None:  # a user's model: its drivers only, none of our MLP's sections
        question = (["", f"## {user_model.SEED_QUESTION}{title}", "",
                     user_model.seed_question(run.drivers),
                     "", f"## Calling a PyTorch model today{title}", "",
                     today.pytorch_today(run.drivers, _models_of(run))]
                    if user_model.is_torch(model) else [])  # fmt: skip
        return [
            "", f"## {user_model.TITLE}{title}", "", user_model.description(model),
            "", f"## {user_model.DECIDES}{title}", "",
            user_model.what_decides(run.drivers, run.sweeps.get("threads")),
            "", f"## Each language's cheapest call{title}", "",
            user_model.fastest_per_language(run.drivers), *question, *timed,
            "", f"## ONNX Runtime and OpenVINO bindings beside C++{title}", "",
            today.bindings(run.drivers),
        ]  # fmt: skip
    missing = coverage.not_in_run(run)
    if missing:
        timed += ["", missing]
    choice = ["", f"## {answer.TITLE}{title}", "", answer.DEFINITION, "",
              answer.choice_table(run.drivers)]  # fmt: skip
    floor = answer.floor_line(run.drivers)
    choice += ["", f"{floor} {answer.TIE_WORDS}"] if floor else []
    lever = answer.batch_lever(run.sweeps.get("batch") or {}, run.drivers)
    choice += ["", answer.LEVER_INTRO, "", lever] if lever else []
    return [
        *choice,
        *timed,
        "", f"## The seed's table beside ours{title}", "", seed.seed_table(by_id),
        "", f"### The seed's puzzles{title}", "", puzzles.seed_findings(by_id),
        "", f"## Calling a PyTorch model today{title}", "",
        today.pytorch_today(run.drivers, _models_of(run)),
        "", f"## ONNX Runtime and OpenVINO bindings beside C++{title}", "",
        today.bindings(run.drivers),
        "", f"## Newer runtimes beside their language's peer{title}", "",
        peers.newer_runtimes(run.drivers),
    ]  # fmt: skip


def _models_of(run: Run) -> Path:
    """The models folder the run's drivers loaded (its env's options)."""
    return Path(str(run.env.get("options", {}).get("models") or "models"))


def same_model(run: Run, runs: Sequence[Run]) -> list[Run]:
    """The other runs of ``runs`` on the user's model of ``run`` (the same sha256)."""
    model = user_model.brought(run)
    if model is None:
        return []
    return [o for o in runs if o is not run
            and (user_model.brought(o) or {}).get("sha256") == model.get("sha256")]  # fmt: skip


def _run_sections(run: Run, title: str, chart_dir: Path, others: Sequence[Run] = ()) -> list[str]:
    """``others``: the other runs of the same user's model (another host's CPU rows)."""
    parts = _driver_sections(run, title, chart_dir)
    counts = count_section(run.drivers)
    if counts:
        parts += ["", f"## Instructions per call under callgrind{title}", "", counts]
    found = trend(run.drivers)
    if found is not None:
        languages = {r.id: r.language for r in run.drivers}
        chart = charts.work_and_time(found, run.name, languages,
                                     chart_dir / f"{run.name}-work-and-time.png")  # fmt: skip
        parts += ["", f"## Wall time against instructions{title}", "",
                  trend_text(found, f"{CHARTS}/{chart.name}")]  # fmt: skip
    for kind, what in sweeps.TITLES.items():
        points = run.sweeps.get(kind)
        if not points:
            continue
        parts += ["", f"## {what}{title}", ""]
        path = charts.sweep(points, kind, run.name, chart_dir / f"{run.name}-{kind}-sweep.png")
        if path is not None:
            parts += [f"![{what}]({CHARTS}/{path.name})", ""]
        parts.append(sweeps.sweep_table(points, kind))
    if run.sweeps.get("callers") or run.sweeps.get("processes"):
        parts += ["", f"## {many_callers.TITLE}{title}", "", _many_callers(run, chart_dir)]
    within = cores_within_bound.section(run.sweeps.get(serving_at_a_rate.KIND))
    if within:
        parts += ["", f"## {cores_within_bound.TITLE}{title}", "", within]
    spent = ways_of_the_cores.section(run.sweeps, int(run.env.get("cores") or 2))
    if spent:
        parts += ["", f"## {ways_of_the_cores.TITLE}{title}", "", spent]
    if rate := _serving(run, chart_dir):
        parts += ["", f"## {serving_at_a_rate.TITLE}{title}", "", rate]
    if user_model.brought(run) is not None:
        decision = cpu_or_gpu.section(run.records) and cpu_or_gpu.program_section(
            run.records, [(o.host, o.records) for o in others]
        )
    else:
        decision = cpu_or_gpu.section(run.records)
    if decision:
        parts += ["", f"## {cpu_or_gpu.TITLE}{title}", "", decision]
    beside_floor = gpu_floor.section(run.records)
    if beside_floor:
        parts += ["", f"## {gpu_floor.TITLE}{title}", "", beside_floor]
    widths = run.sweeps.get("width")
    if widths:
        drawn = charts.sweep(widths, "width", run.name, chart_dir / f"{run.name}-width-sweep.png")
        where = f"{CHARTS}/{drawn.name}" if drawn is not None else None
        parts += ["", f"## {model_size.TITLE}{title}", "", model_size.section(widths, where)]
    ladder = ladder_section(run.path, chart_dir)
    if ladder:
        parts += ["", ladder.rstrip()]
    took = phases_table.section(run.env)
    if took:
        parts += ["", f"## {phases_table.TITLE}{title}", "", took]
    parts += ["", f"## Environment{title}", "", how_measured.environment(run)]
    return parts


def _many_callers(run: Run, chart_dir: Path) -> str:
    """The callers sweep's section, its chart beside it, its answer at the run's cores."""
    threads, processes = run.sweeps.get("callers"), run.sweeps.get("processes")
    every = many_callers.points(threads, processes)
    cores = int(run.env.get("cores") or 2)
    chart = charts.many_callers(many_callers.lines(every, cores), run.name,
                                chart_dir / f"{run.name}-many-callers.png")  # fmt: skip
    where = f"{CHARTS}/{chart.name}" if chart is not None else None
    return many_callers.section(threads, processes, cores, where, runtime_defaults.lines(every))


def _serving(run: Run, chart_dir: Path) -> str:
    """The rows served at a rate, the chart of p99 against the offered rate beside them."""
    points = run.sweeps.get(serving_at_a_rate.KIND)
    chart = charts.serving(serving_at_a_rate.served(points), run.name,
                           chart_dir / f"{run.name}-serving.png")  # fmt: skip
    where = f"{CHARTS}/{chart.name}" if chart is not None else None
    return serving_at_a_rate.section(points, where)


def _callers_by_host(runs: Sequence[Run]) -> list[str]:
    """Each host's best way from as many callers as it has cores, per language, one host
    under another (a GPU host's ``--callers`` beside this machine's)."""
    parts = []
    for run in runs:
        every = many_callers.points(run.sweeps.get("callers"), run.sweeps.get("processes"))
        if every:
            cores = int(run.env.get("cores") or 2)
            parts += ["", f"{_machine(run)}, {cores} cores, run `{run.name}`:", "",
                      callers_screen.table(every, cores)]  # fmt: skip
    if len(parts) < 8:  # fewer than two hosts with callers: their own sections say it
        return []
    return ["", "### Many callers on each host", *parts]


def _appendix(runs: Sequence[Run], second_hosts: Sequence[Run]) -> list[str]:
    """The kernels of each run, then the CUDA rows of kernels-only runs from other hosts."""
    ran = [r for r in second_hosts if any(k.ok for k in r.kernels)]
    elsewhere = "; ".join(
        f"run `{r.name}` ran them on {r.env.get('cuda_device') or r.host}" for r in ran
    )
    parts: list[str] = []
    for run in runs:
        title = f" — {run.host}, run `{run.name}`" if len(runs) > 1 else ""
        section = kernel_section(run.kernels, run.env, f"{elsewhere}: below" if ran else "")
        if section:
            first, rest = section.rstrip().split("\n", 1)
            parts += ["", first + title + "\n" + rest]
    if second_hosts and not parts:
        parts += ["", f"## {APPENDIX}"]
    for run in second_hosts:
        parts += ["", second_host_section(run.name, run.kernels, run.env).rstrip()]
    return parts


def render(runs: Sequence[Run], out: Path) -> str:
    """The Markdown of the report; its charts are written under ``out/charts``."""
    chart_dir = out / CHARTS
    chart_dir.mkdir(parents=True, exist_ok=True)
    for run in runs:  # this report's own charts only: other runs' stay
        for old in chart_dir.glob(f"{run.name}-*.png"):
            old.unlink()
    model = user_model.brought(runs[0]) if len(runs) == 1 else None
    title = user_model.heading(model) if model is not None else "# callbench report"
    parts = [title, "", _intro(runs)]
    # A run of kernels alone beside runs of drivers is a second host for the appendix
    # (the GPU's CUDA rows), not a host of its own for every section.
    main = [run for run in runs if run.drivers] or list(runs)
    second_hosts = [run for run in runs if run not in main]
    for run in main:
        title = f" — {_machine(run)}, run `{run.name}`" if len(main) > 1 else ""
        parts += _run_sections(run, title, chart_dir, same_model(run, main))
    if len(main) > 1:
        versions = [f"- `{run.name}`: {_versions(run) or 'none recorded'}." for run in main]
        parts += ["", "## Hosts side by side", "",
                  "Median µs per call (× each run's base driver) of the drivers verified on "
                  "more than one host. Each run's runtimes:", "", *versions, "",
                  tables.hosts_table(main)]  # fmt: skip
        parts += _callers_by_host(main)
    if second_hosts:
        listed = "; ".join(second_host(r.name, r.env) for r in second_hosts)
        parts.insert(3, f"\nThe appendix merges kernels-only runs from a second host: {listed}.")
    parts += _appendix(main, second_hosts)
    return "\n".join(parts) + "\n"
