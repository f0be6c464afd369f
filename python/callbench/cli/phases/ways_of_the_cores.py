"""How best to use the cores (a part of bench's callers phase): each language's best row at
N = the cores again at as many intra-op threads, and batching at one thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from callbench.harness import console, machine
from callbench.harness.load import callers_plan, cores_plan
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models, run_sweep
from callbench.languages.spec import DriverSpec
from callbench.records.record import Record


def ways_of_the_cores(
    specs: Sequence[DriverSpec], done: Sequence[Record], many: Sequence[Record],
    batched: Sequence[Record], options: RunOptions, run_dir: Path, user_model: bool = False,
) -> list[Record]:  # fmt: skip
    """How best to use the cores (harness/load/cores_plan.py): each language's best row at N =
    the cores (of ``many``, the callers sweep) again at as many intra-op threads, and
    batching at one thread (at batch C and at ``batched``'s best point), with the callers'
    rounds (a user's model's trimmed as its callers' are)."""
    expected = check_models(options.models)
    if expected.signature.fixed_batch is not None:
        console.say(f"how best to use the cores: skipped: the model takes batches of "
                    f"{expected.signature.fixed_batch} only")  # fmt: skip
        return []
    cores = len(machine.usable_cpus())
    one_caller = {r.id: r for r in done if r.ok and r.sweep is None}
    planned = cores_plan.plan(specs, one_caller, many, batched, cores, expected.samples)
    for reason in planned.skipped:
        console.say(f"how best to use the cores: point skipped: {reason}")

    def rounds(rows: Sequence[DriverSpec], batch: int) -> int:
        call_s = max((one_caller[s.id].median_ns * batch / 1e9 for s in rows
                      if s.id in one_caller), default=0.0)  # fmt: skip
        return (callers_plan.point_rounds(call_s, options.rounds) if user_model
                else callers_plan.rounds(options.rounds))  # fmt: skip

    ran: list[Record] = []
    options = replace(options, contention_flags=options.contention_flags and not user_model)
    if planned.intra_op and planned.rows:
        point = replace(options, rounds=rounds(planned.rows, 1))
        ran += run_sweep("intra-op", planned.rows, point, run_dir, [planned.intra_op])
    for batch, rows in planned.batches.items():
        point = replace(options, rounds=rounds(rows, batch))
        ran += run_sweep("batching", rows, point, run_dir, [batch])
    return ran
