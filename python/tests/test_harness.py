"""The harness with drivers that misbehave: every failure is one driver's, and never counts."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from callbench.driver_options import MIN_WARMUP_CALLS, WARMUP_TIME
from callbench.errors import UsageError
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models, run_sweep
from callbench.harness.session import Session
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records.record import Record
from callbench.roles import GPU_FLOOR

FAKE = Path(__file__).with_name("fake_driver.py")


@pytest.fixture(autouse=True)
def no_steal(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fake driver's round claims a few ms; one 10 ms tick of this VM's real
    # steal time would flag it and move the counts these tests check.
    from callbench.harness import machine

    monkeypatch.setattr(machine, "steal_ns", lambda _cpus: None)


def fake(mode: str, driver_id: str = "python-fake") -> DriverSpec:
    return DriverSpec(
        id=driver_id, language="Python", runtime="none", artifact=art.INPUTS, source=FAKE,
        command=lambda: [sys.executable, str(FAKE), mode, "--driver-id", driver_id],
    )  # fmt: skip


SLOW = Path(__file__).with_name("slow_driver.py")


def slow(driver_id: str = "python-slow") -> DriverSpec:
    """A driver of the Python kit whose call takes 50 ms."""
    return DriverSpec(
        id=driver_id, language="Python", runtime="none", artifact=art.INPUTS, source=SLOW,
        command=lambda: [sys.executable, str(SLOW), driver_id],
    )  # fmt: skip


def run(models: Path, tmp_path: Path, *specs: DriverSpec, **options: object) -> dict[str, Record]:
    settings: dict[str, object] = {"calls": 20, "rounds": 4, "warmup": 0, "pin": False, **options}
    opts = RunOptions(models=models, **settings)  # type: ignore[arg-type]
    expected = check_models(models)
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    done = Session(list(specs), opts, run_dir, expected).run()
    return {r.id: r for r in done}


def test_every_driver_gets_every_round(small_models: Path, tmp_path: Path) -> None:
    records = run(small_models, tmp_path, fake("ok", "fake-a"), fake("ok", "fake-b"))
    for record in records.values():
        assert record.status == "ok", record.error
        assert [r.index for r in record.rounds] == [0, 1, 2, 3]
        # The contention probe is timed before and after every round and kept with it.
        assert all(r.probe_ns and r.probe_after_ns for r in record.rounds)
        assert (run_dir := tmp_path / "run" / f"{record.id}.json").is_file(), run_dir


def test_a_crash_in_one_round_fails_that_driver_alone(small_models: Path, tmp_path: Path) -> None:
    records = run(small_models, tmp_path, fake("crash-in-round-3", "fake-crash"), fake("ok"))
    assert records["fake-crash"].status == "failed"
    assert "SIGSEGV" in str(records["fake-crash"].error)
    assert records["python-fake"].status == "ok"
    assert len(records["python-fake"].rounds) == 4


def test_a_flagged_round_is_re_run_and_kept(small_models: Path, tmp_path: Path) -> None:
    record = run(small_models, tmp_path, fake("preempted-once"))["python-fake"]
    assert record.status == "ok", record.error
    flagged = [r for r in record.rounds if r.flagged]
    assert len(flagged) == 1 and "cpu time 50%" in str(flagged[0].flagged)
    assert [r.index for r in record.counted()] == [0, 1, 2, 3]  # the re-run replaced it
    assert len(record.rounds) == 5


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two CPUs")
def test_a_driver_that_leaves_its_pinned_core_has_that_round_re_run(
    small_models: Path, tmp_path: Path
) -> None:
    record = run(small_models, tmp_path, fake("sets-own-affinity"), pin=True)["python-fake"]
    assert record.status == "ok", record.error
    flagged = [r for r in record.rounds if r.flagged]
    assert len(flagged) == 1 and "left the pinned CPUs" in str(flagged[0].flagged)
    assert flagged[0].index == 1
    # Pinned back, the re-run counts.
    assert [r.index for r in record.counted()] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("wrong-outputs", "outputs differ"),
        ("garbage", "not a JSON object"),
        ("wrong-id", "result line says driver 'someone-else'"),
    ],
)
def test_a_misbehaving_driver_never_counts(
    small_models: Path, tmp_path: Path, mode: str, says: str
) -> None:
    record = run(small_models, tmp_path, fake(mode))["python-fake"]
    assert record.status == "failed"
    assert says in str(record.error)


def floor_fake(mode: str, driver_id: str) -> DriverSpec:
    """A fake with the GPU floor's role: checked by the echo of its inputs."""
    return replace(fake(mode, driver_id), roles=frozenset({GPU_FLOOR}))


def test_the_gpu_floor_is_checked_by_the_exact_echo_of_its_inputs(
    small_models: Path, tmp_path: Path
) -> None:
    records = run(small_models, tmp_path, floor_fake("echo", "floor"),
                  floor_fake("echo-one-bit-off", "floor-one-bit-off"),
                  floor_fake("ok", "floor-with-the-models-answer"),
                  fake("echo", "model-with-an-echo"), batch=3)  # fmt: skip
    floor = records["floor"]
    assert floor.status == "ok", floor.error
    assert (floor.max_abs_error, floor.tolerance) == (0.0, 0.0)
    off = str(records["floor-one-bit-off"].error)
    assert "outputs differ from inputs.f32" in off and "tolerance 0)" in off
    assert "outputs differ from inputs.f32" in str(records["floor-with-the-models-answer"].error)
    # The echo is no answer of the model's.
    assert "outputs differ from reference.f32" in str(records["model-with-an-echo"].error)


def test_a_hung_driver_is_killed_and_the_others_go_on(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbench.harness import planning

    monkeypatch.setattr(planning, "round_limit", lambda *_: 2.0)
    started = time.monotonic()
    records = run(small_models, tmp_path, fake("hang-in-round", "fake-hang"), fake("ok"))
    assert time.monotonic() - started < 60
    assert records["fake-hang"].status == "failed"
    assert "time limit" in str(records["fake-hang"].error)
    assert records["python-fake"].status == "ok"


def test_an_unavailable_driver_is_skipped_with_its_reason(
    small_models: Path, tmp_path: Path
) -> None:
    spec = DriverSpec(
        id="python-absent", language="Python", runtime="none", artifact=art.INPUTS,
        source=FAKE, command=lambda: ["false"], available=lambda: "not built: build it",
    )  # fmt: skip
    record = run(small_models, tmp_path, spec)["python-absent"]
    assert record.status == "skipped" and record.error == "not built: build it"
    assert record.rounds == []


@pytest.mark.parametrize("kind", ["batch", "threads"])
def test_the_seeds_protocol_fits_every_sweep_point(
    small_models: Path, tmp_path: Path, kind: str
) -> None:
    """--calls N means N samples a round at every sweep point (as the seed's million does)."""
    samples = len(art.read_reference(small_models))
    opts = RunOptions(models=small_models, calls=samples, rounds=1, warmup=0, pin=False)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    values = [1, 1000] if kind == "batch" else [1]
    done = run_sweep(kind, [fake("ok")], opts, run_dir, values)
    assert [r.status for r in done] == ["ok"] * len(values), [r.error for r in done]
    for record in done:
        assert record.rounds[0].calls * record.batch == samples


@pytest.mark.parametrize("side", ["before", "after"])
def test_a_round_on_a_contended_core_is_re_run(
    small_models: Path, tmp_path: Path, side: str
) -> None:
    opts = RunOptions(models=small_models, rounds=4, round_time=0.001, warmup=0, pin=False)
    expected = check_models(small_models)
    (run_dir := tmp_path / "run").mkdir()
    session = Session([fake("ok")], opts, run_dir, expected)
    # 21 probes seed the medians, then one before and one after each round:
    # the 3rd round's are the 26th and 27th.
    slow = 25 if side == "before" else 26
    probes = iter([1000] * slow + [5000] + [1000] * 20)
    session.rounds.probe = lambda: next(probes)
    [record] = session.run()
    assert record.status == "ok", record.error
    flagged = [r for r in record.rounds if r.flagged]
    assert len(flagged) == 1 and "core contended: probe x5.00" in str(flagged[0].flagged)
    seen = flagged[0].probe_ns if side == "before" else flagged[0].probe_after_ns
    assert flagged[0].index == 2 and seen == 5000
    assert [r.index for r in record.counted()] == [0, 1, 2, 3]


def test_each_option_takes_its_one_default_and_calls_alone_fix_the_seeds_rounds() -> None:
    from callbench.cli import common
    from callbench.cli.main import build_parser
    from callbench.driver_options import WARMUP
    from callbench.harness.options import FIXED_ROUNDS

    def run(*argv: str) -> RunOptions:
        return common.protocol_options(build_parser().parse_args(["run", *argv]))

    assert run() == RunOptions()
    assert run().driver_options(10).warmup == WARMUP
    assert run("--calls", "5").rounds == FIXED_ROUNDS  # the seed's protocol: a few long rounds
    assert run("--calls", "5", "--rounds", "2").rounds == 2
    assert run("--no-pin", "--warmup", "0").pin is False
    # The rule is the timed run's: the ladder's rounds keep their one default with --calls.
    ladder = build_parser().parse_args(["profile", "ladder", "--calls", "5"])
    assert RunOptions.of(ladder).rounds == RunOptions().rounds


def test_a_slow_call_warms_up_by_time_and_the_record_says_what_the_warm_up_did(
    small_models: Path, tmp_path: Path
) -> None:
    # The default warm-up (10,000 calls at most, 2 s) of a 50 ms call: 500 s by calls alone.
    records = run(small_models, tmp_path, slow(), calls=4, rounds=1, warmup=None, latencies=False)
    record = records["python-slow"]
    assert record.status == "ok", record.error
    assert MIN_WARMUP_CALLS <= record.warmup < 100, record.warmup
    # It ran until its budget (a lower bound the rule sets, not a speed).
    assert record.warmup_ns is not None and record.warmup_ns >= WARMUP_TIME * 1e9
    written = json.loads((tmp_path / "run" / "python-slow.json").read_text())
    assert (written["warmup"], written["warmup_ns"]) == (record.warmup, record.warmup_ns)


def test_a_warm_up_limited_by_calls_alone_makes_every_call(small_models: Path) -> None:
    from tests.conftest import run_driver

    done = run_driver(slow(), "--models", str(small_models), "--calls", "3", "--warmup", "7",
                      "--warmup-time", "0", "--serve", stdin="end\n")  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    ready = json.loads(done.stdout.splitlines()[0])
    assert ready["event"] == "ready" and ready["warmup_calls"] == 7


def test_the_command_line_names_callers_only_beyond_one() -> None:
    """Contract 4's --callers: a driver at one caller gets the command line it always got,
    and parsing what the harness writes gives the same options back."""
    from callbench.driver_options import Options, parse_options

    one = Options(calls=50)
    assert "--callers" not in one.arguments()
    assert parse_options(one.arguments()) == one
    three = Options(callers=3).arguments()
    assert three[three.index("--callers") + 1] == "3"


def test_the_command_line_names_the_batchers_wait_only_when_given() -> None:
    """Contract 7's --max-delay: absent unless asked for, read back as given, never below 0."""
    from callbench.driver_options import Options, parse_options

    assert "--max-delay" not in Options().arguments()
    batcher = Options(batch=16, max_delay=250)
    assert parse_options(batcher.arguments()) == batcher
    with pytest.raises(UsageError) as refused:
        parse_options(["--max-delay", "-1"])
    assert str(refused.value) == "--max-delay must be >= 0, got -1"
