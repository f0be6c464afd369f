"""The report's prose: how the run was timed, what was re-run, and the environment."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from callbench.records import contention
from callbench.records.record import Record
from callbench.records.store import Run
from callbench.report.blocks.format import driver_ids
from callbench.report.blocks.ratios import NOISE
from callbench.report.blocks.tables import TIE, WIDE

SEED_CALLS = 1_000_000


def protocol(env: Mapping[str, Any]) -> str:
    """Which protocol made the run, from env.json's "protocol"."""
    found = env.get("protocol")
    if not isinstance(found, Mapping):
        return "The run's env.json does not say which protocol timed it."
    rounds = found.get("rounds", "?")
    if found.get("name") == "fixed":
        calls = found.get("calls")
        seed = " (the seed's protocol)" if calls == SEED_CALLS else ""
        calls_text = f"{calls:,}" if isinstance(calls, int) else "?"
        return (f"Protocol: fixed, {calls_text} calls per round for every driver{seed}, "
                f"{rounds} rounds.")  # fmt: skip
    if found.get("name") == "calibrated":
        return (f"Protocol: calibrated, each driver's calls per round sized to rounds of "
                f"~{found.get('round_time_s', '?')} s (at most {SEED_CALLS:,} calls), "
                f"{rounds} rounds; `--calls 1000000` gives the seed's fixed protocol.")  # fmt: skip
    return f"Protocol: {found.get('name')!r}, {rounds} rounds."


def _ids(records: Sequence[Record]) -> str:
    return driver_ids([r.id for r in records])


def flagged(records: Sequence[Record], reruns: object) -> str:
    """How many rounds were flagged and re-run, and which drivers kept flagged rounds."""
    timed = sum(len(r.rounds) for r in records)
    count = sum(r.flagged_rounds for r in records)
    bound = f", at most {reruns} time(s) each" if isinstance(reruns, int) else ""
    text = (
        f"{count} of {timed} timed rounds were flagged (the driver did not have the CPU: its "
        f"CPU time well below its wall time, or steal time rising; or, in calibrated rounds, "
        f"the contention probe ran over {contention.SLOW:.0%} slow) and re-run{bound}."
    )
    all_flagged = [r for r in records if r.rounds and all(x.flagged for x in r.rounds)]
    left_out = [
        r for r in records
        if r not in all_flagged and {x.index for x in r.rounds} - set(r.by_round())
    ]  # fmt: skip
    if all_flagged:
        timed_records = [r for r in records if r.rounds]
        who = "every driver" if len(all_flagged) == len(timed_records) else _ids(all_flagged)
        text += (f" Every round of {who} stayed flagged after its re-runs, so "
                 "those figures come from flagged rounds.")  # fmt: skip
    if left_out:
        text += f" Rounds that stayed flagged are left out of {_ids(left_out)}."
    return text


def timing(run: Run) -> str:
    """The paragraph under the per-call heading: protocol, noise, how to read the table."""
    options = run.env.get("options") or {}
    sweep_records = [r for points in run.sweeps.values() for rs in points.values() for r in rs]
    parts = [
        protocol(run.env),
        "Rounds are interleaved: round r times every driver once, in a shuffled order, so "
        "drift on a shared machine hits every row alike.",
        flagged(run.drivers, options.get("reruns")),
    ]
    if sweep_records:
        count = sum(r.flagged_rounds for r in sweep_records)
        total = sum(len(r.rounds) for r in sweep_records)
        parts.append(f"Sweeps: {count} of {total} rounds flagged and re-run.")
    parts.append(
        "Each median has its 95% interval from the rounds (scipy's `quantile_test`); "
        f"{WIDE} marks an interval wider than 10% of its median. A row is ranked below the "
        'one above ("A is faster than B") only where their ratio, taken round by round, has '
        f"a 95% interval that excludes 1 and is more than {NOISE:.0%} from 1 "
        "(criterion's rule: significant and above a noise threshold, the threshold chosen so "
        f"that a second run keeps the first's claims); otherwise it is a tie, {TIE} in the "
        'rank column. Tied rows stay in median order; the column "against the row above" '
        "gives the claim's ratio, or for a tie the ratio of instructions per call under "
        "callgrind (the axis a neighbour's load does not move) where both rows were counted. "
        "Ratios are taken round by round against the same round of the base driver."
    )
    return " ".join(parts)


def _load(state: Mapping[str, Any]) -> str:
    load = state.get("loadavg")
    if not isinstance(load, list) or not load:
        return "not readable"
    return " / ".join(f"{v:.2f}" for v in load)


def machine(env: Mapping[str, Any]) -> list[str]:
    """Governor, load average and steal time at the start and end of the run."""
    found = env.get("machine")
    if not isinstance(found, Mapping):
        return ["- machine state: not recorded"]
    start, end = found.get("start") or {}, found.get("end") or {}
    lines = [
        f"- CPU frequency governor: {found.get('governor') or 'not readable here'}",
        f"- load average (1 / 5 / 15 min): {_load(start)} at start, "
        + (f"{_load(end)} at end" if end else "end not recorded"),
    ]
    steal0, steal1 = start.get("steal_ns"), end.get("steal_ns")
    if isinstance(steal0, int) and isinstance(steal1, int):
        lines.append(
            f"- steal time during the run: {(steal1 - steal0) / 1e9:.2f} s over all CPUs "
            f"(since boot: {steal0 / 1e9:.2f} s at start, {steal1 / 1e9:.2f} s at end)"
        )
    else:
        lines.append("- steal time: not readable here" if steal0 is None
                     else f"- steal time since boot at start: {steal0 / 1e9:.2f} s, end not "
                          "recorded")  # fmt: skip
    return lines


def contended(records: Sequence[Record]) -> str:
    """How contended the drivers' core was over the main table's rounds, from the records."""
    rounds = [r for rec in records for r in rec.rounds]
    before = [r.probe_ns for r in rounds if r.probe_ns is not None]
    after = [r.probe_after_ns for r in rounds if r.probe_after_ns is not None]
    if not before and not after:
        return "contention probe: not recorded in this run"
    return contention.describe(before, after)


def environment(run: Run) -> str:
    env = run.env
    git = env.get("git") or {}
    packages = ", ".join(f"{k} {v}" for k, v in (env.get("packages") or {}).items() if v)
    compilers = env.get("compilers") or {}
    lines = [
        f"- run `{run.name}` on host `{run.host}`",
        f"- CPU: {env.get('cpu', '?')}, {env.get('cores', '?')} cores, "
        f"{env.get('memory_gib', '?')} GiB",
        f"- OS: {env.get('os', '?')}; Python {env.get('python', '?')}",
        f"- compilers: {compilers.get('g++') or '?'}; {compilers.get('cmake') or '?'}",
        f"- Java: {env.get('java') or 'not found'}; Maven: {env.get('maven') or 'not found'}",
        f"- packages: {packages or '?'}",
        f"- git commit: `{git.get('commit') or '?'}`"
        + (" (uncommitted changes)" if git.get("dirty") else ""),
        f"- {protocol(env)}",
        *machine(env),
        f"- {contended(run.drivers)}",
        f"- options: {env.get('options', {})}",
    ]
    return "\n".join(lines)
