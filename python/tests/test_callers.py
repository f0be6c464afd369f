"""Contract 4's callers in the Python kit and the harness: every caller's samples, outputs and
latencies where the contract puts them, every caller verified, a failing or stopped caller
ending the run in one line with nothing left behind."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from callbench.driver_options import ONE_CALLER
from callbench.harness.options import RunOptions
from callbench.harness.run import check_models
from callbench.harness.session import Session
from callbench.languages.spec import DriverSpec
from callbench.model import artifacts as art
from callbench.records.record import Record
from callbench.roles import PER_CALLER
from tests.conftest import HarnessRun

DRIVER = Path(__file__).with_name("callers_driver.py")


def command(mode: str, driver_id: str = "python-callers") -> list[str]:
    return [sys.executable, str(DRIVER), mode, driver_id]


def spec(mode: str, driver_id: str, holds: str | None = PER_CALLER) -> DriverSpec:
    return DriverSpec(
        id=driver_id, language="Python", runtime="numpy", artifact=art.WEIGHTS, source=DRIVER,
        command=lambda: command(mode, driver_id), callers=holds,
    )  # fmt: skip


def run_session(
    models: Path, tmp_path: Path, *specs: DriverSpec, callers: int
) -> dict[str, Record]:
    options = RunOptions(models=models, calls=300, rounds=3, warmup=5, pin=False, callers=callers)
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    done = Session(list(specs), options, run_dir, check_models(models)).run()
    return {r.id: r for r in done}


def test_the_harness_verifies_every_caller_and_skips_a_driver_of_one(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbench.harness import machine

    monkeypatch.setattr(machine, "steal_ns", lambda _cpus: None)
    records = run_session(small_models, tmp_path, spec("ok", "fine"),
                          spec("wrong-in-caller-2", "one-caller-wrong"),
                          spec("fail-in-caller-1", "one-caller-fails"),
                          spec("ok", "one-caller-only", holds=None), callers=3)  # fmt: skip
    fine = records["fine"]
    assert fine.status == "ok", fine.error
    assert (fine.callers, fine.callers_verified) == (3, 3)
    assert all(r.callers == 3 and r.caller_ns and len(r.caller_ns) == 3 for r in fine.rounds)
    # A round's time per call counts every caller's calls.
    assert fine.rounds[0].per_call_ns == fine.rounds[0].ns / (300 * 3)
    latencies = fine.latency_samples()
    assert latencies is not None and latencies.shape == (3 * 300,)
    wrong = records["one-caller-wrong"]
    assert wrong.status == "failed" and "outputs differ" in str(wrong.error)
    assert wrong.callers_verified is None
    # A failing caller fails its driver's record alone, in its own line; the others are kept.
    fails = records["one-caller-fails"]
    assert fails.status == "failed"
    assert "caller 1: RuntimeError: caller 1 failed on purpose" in str(fails.error)
    only = records["one-caller-only"]
    assert only.status == "skipped" and ONE_CALLER in str(only.error)


def test_callbench_run_callers_runs_each_row_at_each_n_every_caller_verified(
    run_harness: Callable[..., HarnessRun],
) -> None:
    done = run_harness("--only", "python-onnxruntime", "--only", "python-numpy",
                       "--callers", "1,2", "--calls", "3000")  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    for n in (1, 2):
        record = done.records[f"python-onnxruntime@{n}"]
        assert record.status == "ok", record.error
        assert (record.sweep, record.callers, record.callers_verified) == (
            {"kind": "callers", "value": n},
            n,
            n,
        )
        assert record.notes.get("callers_hold") == (None if n == 1 else "shared")
    assert done.records["python-numpy@1"].status == "ok"
    assert done.records["python-numpy@2"].status == "skipped"


@pytest.mark.parametrize(
    ("given", "says"),
    [(["--callers", "0"], "below the minimum 1"), (["--callers", "2,2"], "names a value twice"),
     (["--callers", "2", "--sweep", "batch"], "--sweep and --callers are each a sweep")],
)  # fmt: skip
def test_callers_a_run_cannot_take_are_a_usage_error(
    run_harness: Callable[..., HarnessRun], given: list[str], says: str
) -> None:
    done = run_harness("--only", "python-numpy", *given)
    assert done.returncode == 2 and says in done.stderr, done.stderr[-500:]


def test_a_callers_only_row_runs_in_groups_of_many_callers_alone(
    small_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At one caller it is its twin's row (roles.CALLERS_ONLY): no group of one runs it."""
    from dataclasses import replace

    from callbench.harness import machine
    from callbench.harness.run import run_group
    from callbench.roles import CALLERS_ONLY

    monkeypatch.setattr(machine, "steal_ns", lambda _cpus: None)
    twin = replace(spec("ok", "twin-per-caller"), roles=frozenset({CALLERS_ONLY}))
    done = {}
    for n in (1, 2):
        options = RunOptions(models=small_models, calls=200, rounds=2, warmup=5, pin=False,
                             callers=n)  # fmt: skip
        run_dir = tmp_path / f"run{n}"
        run_dir.mkdir()
        done[n] = run_group([twin, spec("ok", "plain")], options, run_dir)
    assert [r.id for r in done[1]] == ["plain"]
    assert sorted(r.id for r in done[2]) == ["plain", "twin-per-caller"]
    assert all(r.status == "ok" for r in done[2]), [r.error for r in done[2]]


def test_every_callers_only_row_is_verified_at_two_callers(
    run_harness: Callable[..., HarnessRun],
) -> None:
    """The rows no group of one caller runs (their twin's), verified where they do run."""
    from callbench.registry import DRIVERS
    from callbench.roles import CALLERS_ONLY
    from tests.conftest import assert_verified

    rows = [d for d in DRIVERS if CALLERS_ONLY in d.roles]
    assert rows
    only = [a for d in rows for a in ("--only", d.id)]
    done = run_harness(*only, "--callers", "2", "--calls", "300", "--rounds", "2")
    assert done.returncode == 0, done.stderr[-800:]
    ready = [d.id for d in rows if d.available() is None]
    for driver_id in ready:
        record = done.records[f"{driver_id}@2"]
        assert (record.status, record.callers_verified) == ("ok", 2), (driver_id, record.error)
    assert_verified(done, [f"{d}@2" for d in ready], rounds=2, batch=1)


def test_a_plain_caller_of_our_mlp_alone_is_skipped_on_a_users_model(
    run_harness: Callable[..., HarnessRun], tmp_path: Path
) -> None:
    from tests import onnx_models

    path = onnx_models.MODELS["classifier"](tmp_path / "classifier.onnx")
    done = run_harness("--onnx", str(path), "--only", "independent-python-onnxruntime-threads",
                       "--only", "python-onnxruntime", "--rounds", "2", "--round-time", "0.01",
                       "--warmup", "10")  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    plain = done.records["independent-python-onnxruntime-threads"]
    assert plain.status == "skipped" and "our MLP alone" in str(plain.error)
    assert done.records["python-onnxruntime"].status == "ok"
