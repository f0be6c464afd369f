"""Instruction counts under callgrind: a fake driver with known work per call.

The fake does ADDS integer additions per call, so its count must scale with
ADDS and repeat; its faults (a crash, a hang, wrong outputs, no Valgrind)
must each end its own count with one line and keep the others'.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from callbench.driver_options import WARMUP
from callbench.harness.count.options import MAX_CALLS, MOST_PAIRS
from callbench.harness.count.run import count_drivers
from callbench.harness.options import RunOptions
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records import count as derive
from callbench.records.record import Record
from callbench.records.store import load_run, write_record
from tests.conftest import require_tool

SOURCE = Path(__file__).with_name("count_fake_driver.c")


@pytest.fixture(scope="module")
def fake_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_tool("valgrind")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    binary = tmp_path_factory.mktemp("fake") / "count_fake_driver"
    subprocess.run([compiler, "-O1", "-pthread", "-o", str(binary), str(SOURCE)], check=True)
    return binary


@pytest.fixture
def fake(fake_binary: Path) -> Callable[..., DriverSpec]:
    def make(adds: int, mode: str = "ok", driver_id: str = "cpp-fake-count") -> DriverSpec:
        return DriverSpec(
            id=driver_id, language="C++", runtime="none", artifact=art.INPUTS, source=SOURCE,
            command=lambda: [str(fake_binary), str(adds), mode, "--driver-id", driver_id],
        )  # fmt: skip

    return make


def count(models: Path, run_dir: Path, *specs: DriverSpec, **options: object) -> dict[str, Record]:
    # Rounds of 1000 and 2000 calls, as by default: a round's own cost varies by a
    # few thousand instructions from round to round, a few per call at that K.
    settings: dict[str, object] = {"calls": 1000, "pairs": 2, "warmup": 10, **options}
    opts = RunOptions(models=models, **settings)  # type: ignore[arg-type]
    run_dir.mkdir(exist_ok=True)
    (run_dir / "env.json").write_text("{}")
    return {r.id: r for r in count_drivers(list(specs), opts, run_dir)}


def per_call(record: Record) -> float:
    assert record.count is not None and record.count["status"] == "ok", record.count
    figure = record.count["instructions_per_call"]
    assert isinstance(figure, float)
    return figure


def test_a_count_scales_with_the_work_and_repeats(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    records = count(
        small_models, tmp_path / "run", fake(2000, driver_id="cpp-fake-n"),
        fake(4000, driver_id="cpp-fake-2n"),
    )  # fmt: skip
    n, two_n = per_call(records["cpp-fake-n"]), per_call(records["cpp-fake-2n"])
    assert n > 2000  # at least one instruction per addition
    assert two_n / n == pytest.approx(2, rel=0.01)
    again = per_call(count(small_models, tmp_path / "again", fake(2000))["cpp-fake-count"])
    assert again == pytest.approx(n, rel=0.01)
    # Every raw total is kept, and the figure is derived from them.
    block = records["cpp-fake-n"].count
    assert block is not None
    assert len(block["pairs"]) == 2 and block["events"] == ["Ir"]
    assert all(p.keys() == {"baseline", "single", "double"} for p in block["pairs"])
    assert derive.summary(block)["instructions_per_call"] == n
    assert "AVX-512" in block["isa"] and block["valgrind"].startswith("valgrind")
    # A driver with no timed record in the run gets one that says so.
    assert records["cpp-fake-n"].status == "skipped"
    assert load_run(tmp_path / "run").driver("cpp-fake-n") is not None


def test_cache_simulation_gives_estimated_cycles(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    # K calibrated: a call of ~2000 instructions gets the most calls a round takes.
    block = count(small_models, tmp_path / "run", fake(1000), cache_sim=True, calls=None)[
        "cpp-fake-count"
    ].count
    assert block is not None and block["status"] == "ok", block
    assert block["calls"] == MAX_CALLS
    assert "D1mr" in block["events"]
    # Additions in registers: nearly every reference hits L1, about a cycle each.
    assert block["est_cycles_per_call"] == pytest.approx(block["instructions_per_call"], rel=0.05)


def test_a_timed_record_keeps_its_rounds_and_gains_the_count(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    from callbench.records.record import Round

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    timed = Record(
        kind="driver", id="cpp-fake-count", language="C++", runtime="none", status="ok",
        rounds=[Round(0, 10, 1000)], max_abs_error=0.0, tolerance=1e-4,
    )  # fmt: skip
    write_record(run_dir, timed)
    record = count(small_models, run_dir, fake(100))["cpp-fake-count"]
    assert record.status == "ok" and len(record.rounds) == 1
    assert record.count is not None and record.count["status"] == "ok"


@pytest.mark.parametrize(
    ("mode", "said"),
    [("crash", "SIGSEGV"), ("hang", "time limit"), ("wrong-outputs", "differ from")],
)
def test_a_fault_ends_that_count_alone(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec], mode: str, said: str
) -> None:
    records = count(
        small_models, tmp_path / "run", fake(100, mode, "cpp-fake-bad"), fake(100),
        round_limit=10.0,
    )  # fmt: skip
    bad = records["cpp-fake-bad"].count
    assert bad is not None and bad["status"] == "failed"
    assert said in bad["error"] and "\n" not in bad["error"]
    assert bad.get("instructions_per_call") is None
    good = records["cpp-fake-count"].count
    assert good is not None and good["status"] == "ok", good


def test_without_valgrind_every_row_says_why(
    small_models: Path,
    tmp_path: Path,
    fake: Callable[..., DriverSpec],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    records = count(small_models, tmp_path / "run", fake(100))
    block = records["cpp-fake-count"].count
    assert block is not None and block["status"] == "skipped"
    assert "valgrind" in block["error"]


# The count under test, in a process of its own: Ctrl-C reaches it as in a terminal
# (an xdist worker, like a script started with &, ignores SIGINT itself).
CTRL_C_CHILD = """
import sys
from pathlib import Path
from callbench.harness.options import RunOptions
from callbench.harness.count.run import count_drivers
from callbench.languages.spec import DriverSpec

binary, models, run_dir = sys.argv[1:4]
specs = [
    DriverSpec(id=i, language="C++", runtime="none", artifact="inputs.f32", source=Path(binary),
               command=lambda i=i, m=m: [binary, "100", m, "--driver-id", i])
    for i, m in (("cpp-fake-count", "ok"), ("cpp-fake-hang", "hang"))
]
options = RunOptions(models=Path(models), calls=1000, pairs=2, warmup=10, jobs=1,
                     round_limit=300.0)
try:
    count_drivers(specs, options, Path(run_dir))
except KeyboardInterrupt:
    sys.exit(130)
"""


def test_ctrl_c_keeps_finished_records_and_leaves_no_process(
    small_models: Path, tmp_path: Path, fake_binary: Path
) -> None:
    import os
    import signal
    import sys
    import time

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "env.json").write_text("{}")
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD, str(fake_binary), str(small_models), str(run_dir)],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        # One job: the quick driver is counted and written before the hanging one starts.
        deadline = time.monotonic() + 240
        while not (run_dir / "cpp-fake-count.json").is_file() and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(5)  # the hanging driver is loaded and in its rounds by now
        os.kill(child.pid, signal.SIGINT)
        assert child.wait(timeout=120) == 130
    finally:
        child.kill()
    run = load_run(run_dir)
    quick, hung = run.driver("cpp-fake-count"), run.driver("cpp-fake-hang")
    assert quick is not None and quick.count is not None and quick.count["status"] == "ok"
    assert hung is not None and hung.count is not None
    assert hung.count["error"] == "interrupted (SIGINT)"
    left = subprocess.run(["pgrep", "-f", f"{fake_binary} 100 hang"], capture_output=True)
    assert left.stdout == b""


def test_a_jit_still_compiling_under_valgrind_is_skipped_with_its_pairs() -> None:
    from callbench.harness.count.options import jit_verdict

    pairs = [{"single": [10_000_000], "double": [20_000_000 + d]} for d in (0, 500_000, 9_000_000)]
    block = {"status": "ok", "error": None, "calls": 1000, "events": ["Ir"], "pairs": pairs,
             "warmup": 10_000}  # fmt: skip
    block.update(derive.summary(block))
    assert block["varying"]
    verdict = jit_verdict(block)
    assert verdict["status"] == "skipped" and verdict["instructions_per_call"] is None
    assert "10,000 to 19,000 instructions/call" in verdict["error"]
    assert verdict["pairs"] == pairs  # the raw counts stay
    crashed = {**block, "status": "failed", "error": "crashed with signal SIGABRT: oops"}
    assert jit_verdict(crashed)["status"] == "skipped"
    steady = {**block, "pairs": pairs[:1] * 3}
    assert jit_verdict(steady) is steady


def test_a_jit_row_with_one_pair_off_of_five_is_counted_on_its_middle_pairs() -> None:
    """A garbage collection in one round moves one pair 2% (seen in full count runs): five
    pairs, the middle three within 2%, count; the record keeps the whole spread. Two pairs
    off the same way leave the middle apart, and the row is skipped."""
    from callbench.harness.count.options import jit_verdict

    def block_of(extra: list[int]) -> dict[str, Any]:
        pairs = [{"single": [10_000_000], "double": [20_000_000 + d]} for d in extra]
        block = {"status": "ok", "error": None, "calls": 1000, "events": ["Ir"],
                 "pairs": pairs, "warmup": 10_000}  # fmt: skip
        block.update(derive.summary(block))
        return block

    one_off = block_of([0, 20_000, 10_000, 200_000, 5_000])
    assert one_off["varying"] and one_off["spread"] > 0.01
    assert jit_verdict(one_off) is one_off
    assert one_off["instructions_per_call"] == 10_010
    # Two levels 1.5% apart, as node-onnxruntime-reuse's pairs sat in one process: within
    # the 2% a JIT row's figures keep from run to run, so counted.
    two_levels = block_of([0, 5_000, 150_000, 150_000, 10_000])
    assert jit_verdict(two_levels) is two_levels
    two_off = block_of([0, 300_000, 10_000, 300_000, 5_000])
    assert jit_verdict(two_off)["status"] == "skipped"


def test_a_valgrind_panic_is_named_by_its_reason_not_its_plea(tmp_path: Path) -> None:
    from callbench.harness.processes import error_line

    stderr = tmp_path / "stderr"
    stderr.write_text(
        "progress: loaded\n"
        "valgrind: the 'impossible' happened:\n"
        "   LibVEX called failure_exit().\n"
        "host stacktrace:\n"
        "==123==    at 0x58041F3A: show_sched_status_wrk (m_libcassert.c:406)\n"
        "If that doesn't help, please report this bug to: www.valgrind.org\n"
        "In the bug report, send all the above text, the valgrind\n"
        "version, and what OS and version you are using.  Thanks.\n"
    )
    assert error_line(stderr) == (
        "valgrind: the 'impossible' happened: LibVEX called failure_exit()."
    )
    stderr.write_text("progress: loaded\n==123== a Valgrind line\nmodel.onnx: truncated\n")
    assert error_line(stderr) == "model.onnx: truncated"


def test_a_real_callgrind_panic_is_named_by_its_first_line() -> None:
    """A Go driver's whole stderr when callgrind panicked on its preemption signal (Go
    1.26, Valgrind 3.19): the record quotes the assertion, not the plea that ends it."""
    from callbench.harness.processes import error_line

    panic = Path(__file__).with_name("callgrind_go_panic.stderr")
    assert panic.read_text().rstrip().endswith("what OS and version you are using.  Thanks.")
    assert error_line(panic) == (
        "Callgrind: threads.c:247 (vgCallgrind_post_signal): "
        "Assertion 'sigNum == vgCallgrind_current_state.sig' failed."
    )


def test_a_jit_whose_double_round_cost_less_is_skipped_as_unstable() -> None:
    """A pair whose 2K-call round did fewer instructions than its K-call one (the JIT
    compiling in the first) gives a negative figure: the spread stays a width, the row is
    varying, and a JIT row is skipped saying so, not written with a negative spread."""
    from callbench.harness.count.options import jit_verdict
    from callbench.records import count as derive

    pairs = [{"single": [9_000_000], "double": [1_000_000]},  # -8,000 a call
             {"single": [1_000_000], "double": [6_000_000]},  # 5,000
             {"single": [1_000_000], "double": [5_500_000]}]  # 4,500  # fmt: skip
    block = {"status": "ok", "error": None, "calls": 1000, "events": ["Ir"], "pairs": pairs,
             "warmup": 10_000}  # fmt: skip
    figures = derive.summary(block)
    assert figures["spread"] is not None and figures["spread"] > 0 and figures["varying"]
    verdict = jit_verdict({**block, **figures})
    assert verdict["status"] == "skipped" and verdict["error"].startswith("unstable under Valgrind")


def test_a_jit_row_counts_its_calling_thread_once_the_jit_settles(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    """A JIT row (a node- id) is counted with its threads apart: the "collector" thread's
    tenth and the "compiler" thread's five times stay out, and its pairs wait until two
    successive rounds agree, past the first three rounds' double-cost calls."""
    plain = per_call(count(small_models, tmp_path / "plain", fake(2000))["cpp-fake-count"])
    records = count(small_models, tmp_path / "jit", fake(2000, "jit", "node-fake-jit"))
    block = records["node-fake-jit"].count
    assert block is not None and block["threads_apart"], block
    assert per_call(records["node-fake-jit"]) == pytest.approx(plain, rel=0.01)
    settle = block["settle"]
    assert settle["settled"] and len(settle["figures"]) >= 4
    assert settle["figures"][0] > 1.8 * plain  # the compiling rounds' calls cost double
    assert settle["calls_before_pairs"] == 10 + 1000 * len(settle["figures"])
    assert block["counted_thread"] == 1


def test_a_java_row_runs_with_every_register_exact_and_counts_the_same_work(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    """A JVM resumes after its own SIGSEGVs, so a Java row runs under callgrind with every
    register exact at a memory access; that changes how Valgrind translates, not the
    instructions counted."""
    from callbench.harness.count.callgrind import PRECISE_REGISTERS

    records = count(
        small_models, tmp_path, fake(2000, "ok", "cpp-fake-count"), fake(2000, "ok", "java-fake")
    )
    java, plain = records["java-fake"].count, records["cpp-fake-count"].count
    assert java is not None and plain is not None
    assert PRECISE_REGISTERS in java["command"] and PRECISE_REGISTERS not in plain["command"]
    assert per_call(records["java-fake"]) == pytest.approx(
        per_call(records["cpp-fake-count"]), rel=0.01
    )


def test_a_jit_that_never_settles_is_skipped_saying_so() -> None:
    from callbench.harness.count.options import SETTLE_ROUNDS, jit_verdict

    figures = [1000.0 + 50 * (i % 2) for i in range(SETTLE_ROUNDS)]
    block = {"status": "ok", "error": None, "calls": 1000, "warmup": 10_000, "varying": False,
             "settle": {"figures": figures, "settled": False}}  # fmt: skip
    verdict = jit_verdict(block)
    assert verdict["status"] == "skipped" and verdict["instructions_per_call"] is None
    assert verdict["error"].startswith(
        f"the JIT did not settle under Valgrind: {SETTLE_ROUNDS} counted rounds of 1,000 calls"
    )


def test_a_jit_rows_rounds_are_calibrated_longer() -> None:
    """Its calling thread's garbage collection averages out over rounds twice as long
    (java-pytorch's, and its variants', eight times), up to JIT_MAX_CALLS calls; a compiled
    row whose allocator's work wanders gets longer rounds too."""
    from callbench.harness.count.options import JIT_MAX_CALLS, calls_for, round_target

    jit = round_target("java-onnxruntime", jit=True)
    assert round_target("java-onnxruntime", jit=False) == 50_000_000
    assert jit == 2 * 50_000_000
    assert round_target("java-pytorch-reuse", jit=True) == 4 * jit
    assert round_target("java-pytorchish", jit=True) == jit
    assert calls_for(34_700, round_target("rust-tract-state", jit=False)) == MAX_CALLS
    assert calls_for(40_700, round_target("rust-tract", jit=False)) == 8600
    assert calls_for(78_000) == 641  # 5e7 instructions a round
    assert calls_for(78_000, jit) == 1282
    assert calls_for(78_000, round_target("java-pytorch", jit=True)) == 5128
    assert calls_for(5_000, jit) == MAX_CALLS
    assert calls_for(21_000, 4 * jit, JIT_MAX_CALLS) == 19048
    assert calls_for(4_000, jit, JIT_MAX_CALLS) == JIT_MAX_CALLS


def test_a_row_counts_three_pairs_at_first_and_tracts_three_in_each_process() -> None:
    """--pairs for most rows; a JIT row at least JIT_PAIRS; tract's rows (rust-tract and its
    variants) in three processes, the most pairs shared among them; the most never below
    the first."""
    from callbench.harness.count.options import (
        JIT_PAIRS,
        MOST_JIT_PAIRS,
        first_pairs,
        processes_for,
    )
    from callbench.harness.count.pairs import pairs_for

    assert first_pairs(3, jit=False) == 3
    assert first_pairs(1, jit=False) == 1
    assert first_pairs(1, jit=True) == JIT_PAIRS == 3
    assert [processes_for(d) for d in ("rust-tract", "rust-tract-state", "rust-tractor")] == [
        3,
        3,
        1,
    ]
    # A row counted in three processes: three pairs in each, no more.
    assert pairs_for(RunOptions(), "rust-tract-state", jit=False) == (3, 3)
    assert pairs_for(RunOptions(), "cpp-onnxruntime", jit=False) == (3, MOST_PAIRS)
    assert pairs_for(RunOptions(), "node-onnxruntime", jit=True) == (3, MOST_JIT_PAIRS)
    assert pairs_for(RunOptions(pairs=11), "rust-ort", jit=False) == (11, 11)


class WanderingRounds:
    """Counted rounds whose calls cost ``costs[n]`` instructions each in the n-th pair,
    plus a fixed 1,000 a round: what ``count_pairs`` asks of ``CountedRounds``."""

    def __init__(self, costs: list[float]) -> None:
        self.costs, self.rounds = costs, 0

    def count(self, calls: int) -> tuple[list[str], list[int]]:
        cost = self.costs[self.rounds // 3]  # a pair: the baseline, K and 2K
        self.rounds += 1
        return ["Ir"], [round(1_000 + cost * calls)]


@pytest.mark.parametrize(
    ("costs", "counted"),
    [
        ([100.0, 100.5, 100.2], 3),  # within 1%: three pairs
        ([100.0, 103.0, 100.2, 100.4, 100.1], 5),  # the middle three of five within 1%
        ([100.0, 103.0, 97.0, 104.0, 96.0, 106.0, 94.0, 105.0, 95.0, 101.0], 9),  # at most
    ],
)
def test_pairs_that_spread_wide_get_two_more_up_to_the_most(
    costs: list[float], counted: int
) -> None:
    from callbench.harness.count.pairs import count_pairs

    events, pairs = count_pairs(WanderingRounds(costs), 1_000, (3, 9))  # type: ignore[arg-type]
    assert len(pairs) == counted
    figures = derive.pair_figures({"events": events, "calls": 1_000, "pairs": pairs})
    # Each pair's own cost a call, but for its baseline's call (the median's, 1/2998 of it).
    assert figures == pytest.approx(costs[:counted], rel=1e-3)


def test_work_deferred_into_another_round_counts_wherever_it_falls() -> None:
    """What a pair's calls leave for later (glibc's malloc consolidating their freed chunks
    when the next command is read) may land in the next pair's baseline, its K round or
    its 2K round: with the baseline it counts as the calls' cost wherever it fell; the K
    and 2K rounds' difference alone took it on or off."""
    calls, cost, own, left = 1_000, 80.0, 300_000, 900_000
    rounds = ("baseline", "single", "double")

    def pair(into: str | None) -> dict[str, list[int]]:
        counted = {r: own + cost * n for r, n in zip(rounds, (1, calls, 2 * calls), strict=True)}
        if into is not None:
            counted[into] += left
        return {r: [round(v)] for r, v in counted.items()}

    # The first baseline, after rounds of a few calls, holds none; then each pair's work
    # lands once: in the next baseline, single or double round.
    pairs = [pair(None), pair("baseline"), pair("single"), pair("double")]
    block = {"events": ["Ir"], "calls": calls, "pairs": pairs}
    assert derive.pair_figures(block)[1:] == pytest.approx([cost + left / (3 * calls - 2)] * 3)
    assert derive.pair_figures(block)[0] == pytest.approx(cost)
    old = [{k: v for k, v in p.items() if k != "baseline"} for p in pairs]
    assert derive.pair_figures({**block, "pairs": old}) == pytest.approx(
        [cost, cost, cost - left / calls, cost + left / calls]
    )


def test_the_middle_spread_is_the_middle_three_pairs_of_five_or_more() -> None:
    assert derive.middle_spread([100.0, 90.0, 101.0, 110.0, 102.0]) == pytest.approx(0.02 / 1.01)
    assert derive.middle_spread([80, 90, 99, 100, 101, 110, 120]) == pytest.approx(0.02)
    assert derive.middle_spread([100.0, 104.0]) == pytest.approx(0.04 / 1.02)


def test_a_jvm_crash_is_named_from_its_crash_log_not_its_options_line(tmp_path: Path) -> None:
    from callbench.harness.count.counter import jvm_crash
    from callbench.harness.processes import error_line

    stderr = tmp_path / "stderr"
    stderr.write_text("Picked up JAVA_TOOL_OPTIONS: -XX:ErrorFile=/tmp/x/hs_err_pid%p.log\n")
    assert error_line(stderr) is None
    assert jvm_crash(tmp_path) is None
    (tmp_path / "hs_err_pid42.log").write_text(
        "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n"
        "#  SIGILL (0x4) at pc=0x0000001, pid=42, tid=43\n#\n"
        "# JRE version: OpenJDK Runtime Environment Temurin-25\n"
        "# Problematic frame:\n# C  [libtorch_cpu.so+0x123]  at::something()\n#\n"
        "---------------  S U M M A R Y ------------\n#  not read\n"
    )
    assert jvm_crash(tmp_path) == (
        "(the JVM's crash log: SIGILL (0x4) at pc=0x0000001, pid=42, tid=43; Problematic frame:; "
        "C  [libtorch_cpu.so+0x123]  at::something())"
    )


def test_a_jit_row_that_crashed_is_counted_on_a_second_try_that_says_so(
    small_models: Path,
    tmp_path: Path,
    fake: Callable[..., DriverSpec],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_CRASH_MARKER", str(tmp_path / "crashed"))
    records = count(
        small_models, tmp_path / "run", fake(500, "crash-once", "node-fake-flaky"),
        fake(500, "crash", "node-fake-crash"), fake(500, "crash", "cpp-fake-crash"),
    )  # fmt: skip
    flaky = records["node-fake-flaky"].count
    assert flaky is not None and flaky["status"] == "ok", flaky
    assert flaky["crashed_before"].startswith("crashed with signal SIGSEGV")
    crash = records["node-fake-crash"].count
    assert crash is not None and crash["status"] == "skipped"
    assert "SIGSEGV" in crash["error"] and "SIGSEGV" in crash["crashed_before"]
    # A compiled driver that crashes is not tried again: it is a fault, not a JIT's.
    once = records["cpp-fake-crash"].count
    assert once is not None and once["status"] == "failed" and "crashed_before" not in once


@pytest.fixture
def in_three_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """cpp-fake-pooled counted as tract's rows are: in three processes."""
    from callbench.harness.count import options as count_options

    monkeypatch.setattr(count_options, "PROCESSES", {"cpp-fake-pooled": 3})


@pytest.mark.usefixtures("in_three_processes")
def test_a_row_whose_level_is_set_per_process_pools_the_pairs_of_several(
    small_models: Path, tmp_path: Path, fake: Callable[..., DriverSpec]
) -> None:
    records = count(
        small_models, tmp_path / "run", fake(2000, driver_id="cpp-fake-pooled"),
        fake(2000, driver_id="cpp-fake-alone"),
    )  # fmt: skip
    pooled, alone = records["cpp-fake-pooled"].count, records["cpp-fake-alone"].count
    assert pooled is not None and alone is not None
    assert pooled["processes"] == [2, 2, 2] and len(pooled["pairs"]) == 6
    assert "processes" not in alone and len(alone["pairs"]) == 2
    assert per_call(records["cpp-fake-pooled"]) == pytest.approx(
        per_call(records["cpp-fake-alone"]), rel=0.01
    )
    assert derive.summary(pooled)["instructions_per_call"] == pooled["instructions_per_call"]


@pytest.mark.usefixtures("in_three_processes")
def test_a_row_whose_later_process_fails_is_failed_saying_which(
    small_models: Path,
    tmp_path: Path,
    fake: Callable[..., DriverSpec],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_CRASH_MARKER", str(tmp_path / "crashed"))
    spec = fake(500, "crash-after-first", "cpp-fake-pooled")
    block = count(small_models, tmp_path / "run", spec)["cpp-fake-pooled"].count
    assert block is not None and block["status"] == "failed", block
    assert block["error"].startswith("process 2 of 3: crashed with signal SIGSEGV")


def test_the_count_help_states_the_warmup_the_count_takes() -> None:
    from callbench.cli.main import build_parser
    from callbench.harness.warmup import JIT_WARMUP, Warmup, of_count
    from callbench.registry import lookup

    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    count_parser = subparsers.choices["count"]  # type: ignore[attr-defined]
    helps = {a.dest: a.help for a in count_parser._actions}
    assert f"default {WARMUP}; a count's of Java and Node: {JIT_WARMUP['java']}" in helps["warmup"]
    assert JIT_WARMUP["java"] == JIT_WARMUP["node"]
    # What the count then takes: the JIT's, or the one default; --warmup as given; never a
    # time limit, whatever --warmup-time says (the clock runs slow under Valgrind).
    assert of_count(lookup("cpp-handwritten"), RunOptions()) == Warmup(WARMUP, 0.0)
    assert of_count(lookup("java-onnxruntime"), RunOptions()) == Warmup(JIT_WARMUP["java"], 0.0)
    assert of_count(lookup("node-onnxruntime"), RunOptions(warmup=10, warmup_time=2)) == Warmup(
        10, 0.0
    )


def test_the_rows_that_count_longest_are_started_first() -> None:
    """Rows with longer rounds or more pairs than their language's, then JIT rows, then the
    interpreter's, then the compiled ones, each in registry order."""
    from callbench.harness.count.options import LONGER_ROUNDS, PROCESSES
    from callbench.harness.count.run import slowest_first
    from callbench.registry import DRIVERS, language_key

    longer = [s.id for s in DRIVERS if s.id.startswith((*LONGER_ROUNDS, *PROCESSES))]
    assert {"rust-tract", "rust-tract-state", "java-pytorch-reuse"} <= set(longer)
    started = slowest_first(DRIVERS)
    assert [s.id for s in started[: len(longer)]] == longer
    order = [language_key(spec) for spec in started[len(longer) :]]
    firsts = list(dict.fromkeys(order))
    assert firsts[:3] == ["java", "node", "python"] and set(firsts[3:]) == {"cpp", "go", "rust"}
    assert order == sorted(order, key=firsts.index)
    assert [s.id for s in slowest_first(DRIVERS) if s.id.startswith("cpp")] == [
        s.id for s in DRIVERS if s.id.startswith("cpp")
    ]


def test_k_is_calibrated_from_the_cheaper_of_two_first_rounds() -> None:
    """A first round carrying one-off work does not shrink K."""
    from callbench.harness.count.calibration import calibrated_calls
    from callbench.harness.count.options import TARGET_INSTRUCTIONS

    class Rounds:
        def __init__(self, costs: list[float]) -> None:
            self.costs, self.asked = costs, []

        def per_call(self, calls: int) -> float:
            self.asked.append(calls)
            return self.costs.pop(0)

    inflated = Rounds([113_000.0, 81_000.0])
    assert calibrated_calls(inflated, TARGET_INSTRUCTIONS, MAX_CALLS) == 617
    assert inflated.asked == [100, 100]
    assert calibrated_calls(Rounds([81_000.0, 113_000.0]), TARGET_INSTRUCTIONS, MAX_CALLS) == 617


def test_a_jit_rows_settling_follows_k_that_moves_far_from_the_calibrated_one() -> None:
    """java-pytorch's K from its 100-call rounds was a third of its warm K, and there its
    young collections fell in every other round: settling moves to the warm K at once."""
    from callbench.harness.count.settling import settle_calibrated

    class Collecting:
        """Rounds below 3,000 calls alternate with a collection; longer ones hold one each."""

        busiest, caller, served = 1, None, 0

        def __init__(self) -> None:
            self.asked: list[int] = []

        def per_call(self, calls: int) -> float:
            self.asked.append(calls)
            self.served += calls
            if calls >= 3_000:
                return 76_800.0
            return 77_500.0 if len(self.asked) % 2 else 76_100.0

    rounds = Collecting()
    calls, settling = settle_calibrated(rounds, 1_673, 100, 20_000, 400_000_000)  # type: ignore[arg-type]
    assert settling["settled"] and calls == 5_208
    assert rounds.asked == [1_673, 5_161, 5_161, 5_208, 5_208]
    assert settling["figures"] == [77_500.0] + [76_800.0] * 4
    assert settling["calls_before_pairs"] == 100 + sum(rounds.asked)
