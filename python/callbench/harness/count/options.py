"""How a count is taken: its limits, K (calls per counted round), the warm-up, the
verdict on a JIT-compiled driver, and the ``count`` block a record carries.
"""

from __future__ import annotations

from typing import Any

from callbench.harness.count import callgrind
from callbench.harness.options import RunOptions
from callbench.harness.warmup import JIT_WARMUP
from callbench.records import count as derive

# K is calibrated so a round of K calls counts about this many instructions:
# a round's own cost (the command, the answer, the toggles) varies by a few
# thousand instructions, under 0.01% of that, while a slow call's K stays small
# enough for the whole count to fit its budget.
TARGET_INSTRUCTIONS = 50_000_000
# A JIT's calling thread also collects garbage (V8's scavenges, a JVM's allocation slow
# paths), a few percent of a round of 5e7 instructions one round and not the next; rounds
# twice as long average it out. At 2e8 a JIT row's pairs came within 0.1% of each other but
# for one in five 1-2% (or 11%) off (runs 20261129T0552Z-count-issue67-19 to -21), which
# the median and more pairs while they spread (count_pairs) absorb.
JIT_TARGET_INSTRUCTIONS = 100_000_000
# Rows whose rounds are longer, by driver id (their -reuse or other variants too):
# - java-pytorch's young collections (some 6e6 instructions every ~5,000 calls) fell in
#   every other round of K = 2,577 at 2e8, its pairs 75,300 or 78,400 a call, and the row
#   was skipped (a full count at 2e8, stopped); at 4e8 (K ~ 5,200, one collection a round)
#   its pairs agree.
# - tract's rows (rust-tract, rust-tract-state): their glibc malloc work wanders over tens
#   of thousands of calls (_int_malloc 649 and 1,403 instructions a call in two pairs of
#   one rust-tract-state process, at K = 1,457): three pairs at K ~ 1,450 read 34,309,
#   34,551 and 35,043 in three full counts (runs 20261128T1758Z-count-issue67-10, -11,
#   -12), and rust-tract's, at K ~ 1,220, 40,898, 40,668 and 40,427 (runs
#   20261129T0914Z-count-issue67-22 to -24), each process at its own level. At K = 10,000
#   a pair spans 30,000 calls.
LONGER_ROUNDS = {"java-pytorch": 400_000_000, "rust-tract": 350_000_000}
MIN_CALLS, MAX_CALLS = 100, 10_000
# A JIT row's K may go higher (a JIT call of 10,000 instructions needs 20,000), at most
# half the samples the models hold (a pair's second round takes 2K).
JIT_MAX_CALLS = 20_000
# Under Valgrind a JIT may still compile during counted rounds, or crash: such a
# row is skipped with what was seen (its raw pairs kept), not failed.
JIT_LANGUAGES = frozenset(JIT_WARMUP)
# A JIT row is counted with its threads apart (the calling thread alone), and its pairs
# only once two successive counted rounds of K calls agree within derive.SETTLE_TOLERANCE
# a call: the JIT warm. At most SETTLE_ROUNDS such rounds; the record states how many it took.
SETTLE_ROUNDS = 12
# A JIT row's calling thread still collects garbage now and then: one round of five in a
# full count ran 1.4-2% off the others. A JIT row counts at least three pairs and two more
# while their middle spreads over MORE_PAIRS_ABOVE; with five or more it is judged on the
# middle three (its figure, their median, is the same). Counting five from the start gave
# the same figures within 0.16% in three full counts (runs -19 to -21, their first three
# pairs taken so) for two more pairs, six rounds, a row.
JIT_PAIRS = 3
# Pairs whose middle (the middle three of five or more, else all) spread more than this
# get two more, up to MOST_PAIRS (a JIT row's up to MOST_JIT_PAIRS), and the figure is the
# median of them all. independent-python-onnxruntime's pairs are 1-4% apart in a process:
# at 1% its first three came within 0.80% in one run, stopped there, and the median of
# three sat 1.03% above the next two runs' (runs 20261129T1248Z-count-issue67-25 to -27).
MORE_PAIRS_ABOVE = 0.005
MOST_PAIRS, MOST_JIT_PAIRS = 9, 7
# Rows counted in more than one process, by driver id (their variants too), the pairs of
# all pooled and their median the figure: tract's rows sit at a level set per process.
# Eleven processes of rust-tract-state at K = 10,000 read 34,322-34,676 a call (runs
# 20261129T0552Z-count-issue67-19 to 20261129T1353Z-count-issue67-27), a process's nine
# pairs close around its own level, so the median of nine pairs of one process moved 1.03%
# over runs -25 to -27, past the 1% a compiled row keeps. Three processes of three pairs
# count as many calls; their median sits among three levels. A process after the first
# keeps the first's K.
PROCESSES = {"rust-tract": 3}
# How far apart those middle three may be: a JIT row's figures agree within 2% from run to
# run (a compiled row's within 1%), and node-onnxruntime-reuse's pairs sat at two levels
# 1.1% apart in one process (run 20261128T1120Z-count-issue67-1), its median between.
JIT_VARYING = 0.02


def jit_verdict(counted: dict[str, Any]) -> dict[str, Any]:
    """A JIT-compiled driver's count: a JIT that never settled, unstable pairs or a crash
    under Valgrind skip it."""
    settle = counted.get("settle")
    if counted["status"] == "ok" and settle is not None and not settle["settled"]:
        last = ", ".join(f"{f:,.0f}" for f in settle["figures"][-3:])
        return {
            **counted, "status": "skipped", "instructions_per_call": None,
            "est_cycles_per_call": None,
            "error": (
                f"the JIT did not settle under Valgrind: {len(settle['figures'])} counted "
                f"rounds of {counted['calls']:,} calls after {counted['warmup']:,} warm-up "
                f"calls, the last two over {derive.SETTLE_TOLERANCE:.0%} apart (last: {last} "
                "instructions/call)"
            ),
        }  # fmt: skip
    figures = derive.pair_figures(counted)
    if counted["status"] == "ok" and (derive.middle_spread(figures) or 0.0) > JIT_VARYING:
        return {
            **counted, "status": "skipped", "instructions_per_call": None,
            "est_cycles_per_call": None,
            "error": (
                f"unstable under Valgrind: pairs gave {min(figures):,.0f} to {max(figures):,.0f} "
                f"instructions/call ({counted['spread']:.0%} apart, the middle "
                f"{derive.middle_spread(figures):.1%}), the JIT still compiling "
                f"after {counted['warmup']:,} warm-up calls"
            ),
        }  # fmt: skip
    if crashed(counted):
        return {**counted, "status": "skipped", "error": f"under Valgrind: {counted['error']}"}
    return counted


def crashed(counted: dict[str, Any]) -> bool:
    """Whether a count failed because its process died of a signal."""
    return counted["status"] == "failed" and "crashed with signal" in str(counted["error"])


def _of_driver(table: dict[str, int], driver: str) -> list[int]:
    """``table``'s values for ``driver``: its own, or that of the row it is a variant of."""
    return [v for d, v in table.items() if driver == d or driver.startswith(d + "-")]


def round_target(driver: str, jit: bool) -> int:
    """The instructions a counted round of ``driver`` aims at."""
    longer = _of_driver(LONGER_ROUNDS, driver)
    return max(longer, default=JIT_TARGET_INSTRUCTIONS if jit else TARGET_INSTRUCTIONS)


def counts_longer(driver: str) -> bool:
    """Whether ``driver``'s rounds or processes are more than its language's (LONGER_ROUNDS,
    PROCESSES)."""
    return bool(_of_driver(LONGER_ROUNDS, driver) or _of_driver(PROCESSES, driver))


def first_pairs(asked: int, jit: bool) -> int:
    """The pairs a row counts at first in a process: ``asked`` (--pairs), a JIT row's at
    least JIT_PAIRS."""
    return max(asked, JIT_PAIRS if jit else asked)


def processes_for(driver: str) -> int:
    """The processes ``driver`` is counted in (PROCESSES), their pairs pooled."""
    return max(_of_driver(PROCESSES, driver), default=1)


def calls_for(
    instructions_per_call: float, target: int = TARGET_INSTRUCTIONS, most: int = MAX_CALLS
) -> int:
    """K for a driver whose calls cost about this many instructions each, so that a round
    counts about ``target`` instructions (between MIN_CALLS and ``most``)."""
    return max(MIN_CALLS, min(most, round(target / max(instructions_per_call, 1))))


def block(options: RunOptions, status: str, error: str | None, **more: Any) -> dict[str, Any]:
    """A record's ``count`` block; ``pairs`` empty unless counted."""
    data: dict[str, Any] = {
        "status": status, "error": error, "tool": "callgrind", "valgrind": callgrind.version(),
        "calls": options.calls or MAX_CALLS, "warmup": options.warmup or 0,
        "cache_sim": options.cache_sim, "isa": callgrind.host_isa(), "events": [], "pairs": [],
    }  # fmt: skip
    data.update(more)
    return data
