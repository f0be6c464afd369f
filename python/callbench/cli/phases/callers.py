"""bench's callers phase: the callers sweep, each runtime's fastest row that takes callers,
in each language, at each count in threads (and in processes where the language serves that
way)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from callbench.harness import console, machine
from callbench.harness.load import callers_plan
from callbench.harness.options import RunOptions
from callbench.harness.run import run_sweep
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record

# --quick: the callers sweep at these counts.
QUICK_CALLERS = [1, 2]


def many_callers(
    specs: Sequence[DriverSpec], done: Sequence[Record], options: RunOptions, run_dir: Path,
    counts: Sequence[int] | None = None, user_model: bool = False,
) -> list[Record]:  # fmt: skip
    """The callers sweep (harness/load/callers_plan.py): each runtime's fastest row that takes
    callers, in each language, at each count in threads, and in processes where the
    language serves that way; ``counts`` in place of the plan's. A user's model's sweep
    runs the counts and rounds its call affords (``callers_plan.affordable``), each
    skipped point said once."""
    cores = len(machine.usable_cpus())
    plan = callers_plan.plan(specs, done, cores)
    half = callers_plan.rounds(options.rounds)
    rounds = {n: half for n in counts or plan.counts}
    if user_model:
        ids = {s.id for s in plan.threads}
        afford = callers_plan.affordable([r for r in done if r.id in ids], cores,
                                         options.rounds)  # fmt: skip
        for reason in afford.skipped:
            console.say(f"callers sweep point skipped: {reason}")
        rounds = afford.rounds
    swept: list[Record] = []
    for n, point_rounds in rounds.items():
        # A user's model's few rounds count as they ran, as its other sweeps' do: a ResNet-50
        # on 2 cores trips the contention probe in most rounds, which would leave one counted.
        point = replace(options, rounds=point_rounds,
                        contention_flags=options.contention_flags and not user_model)  # fmt: skip
        if plan.threads:
            swept += run_sweep("callers", plan.threads, point, run_dir, [n])
        if plan.processes and n > 1:
            swept += run_sweep("processes", plan.processes, point, run_dir, [n])
    return swept
