"""Where a bench's time went: each phase timed into env.json (schema'd), said in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from callbench.cli import builds
from callbench.errors import RunError
from callbench.records.phases import (
    CACHED,
    COLD,
    VENV_SECONDS,
    Phase,
    Phases,
    duration,
    recorded,
    summarised,
)
from tests.conftest import HarnessRun


@pytest.fixture(autouse=True)
def no_venv_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """nox's session sets them for the callbench it runs, the tests included."""
    monkeypatch.delenv(VENV_SECONDS, raising=False)


def test_each_phase_is_timed_in_order_and_a_failed_one_is_kept_marked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(VENV_SECONDS, "61.25")
    phases = Phases()
    with phases.timed("export"):
        pass
    with pytest.raises(KeyboardInterrupt), phases.timed("measure"):
        raise KeyboardInterrupt
    assert [(p.phase, p.failed) for p in phases.done] == [
        ("venv", False), ("export", False), ("measure", True)
    ]  # fmt: skip
    assert phases.done[0].seconds == 61.25


def test_a_venv_time_that_is_not_a_number_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VENV_SECONDS, "soon")
    assert Phases().done == []


def test_phases_are_added_to_env_json_once_each_after_an_earlier_invocations(
    tmp_path: Path,
) -> None:
    (tmp_path / "env.json").write_text(json.dumps({"host": "h", "phases": [
        {"phase": "build", "seconds": 3.0, "language": "cpp", "build": COLD}]}))  # fmt: skip
    phases = Phases()
    phases.add(Phase("build", 2.0, "rust", CACHED, failed=True))
    phases.write(tmp_path)
    phases.add(Phase("report", 1.5))
    phases.write(tmp_path)
    env = json.loads((tmp_path / "env.json").read_text())
    assert env["host"] == "h"
    assert env["phases"] == [
        {"phase": "build", "seconds": 3.0, "language": "cpp", "build": "cold"},
        {"phase": "build", "seconds": 2.0, "language": "rust", "build": "cached", "failed": True},
        {"phase": "report", "seconds": 1.5},
    ]
    # Read back, they are the phases written: the README's line is the console's.
    assert recorded(env)[1:] == phases.done
    assert f"callbench: {summarised(recorded(env)[1:])}" == phases.summary()


@pytest.mark.parametrize(
    ("phase", "problem"),
    [
        (Phase("build", 1.0), "'language' is a required property"),
        (Phase("measure", 1.0, language="cpp"), "should not be valid"),
        (Phase("build", 1.0, "go", "warm"), "'warm' is not one of"),
        (Phase("coffee", 1.0), "'coffee' is not one of"),
        (Phase("export", -1.0), "less than the minimum"),
    ],
)
def test_a_phase_the_schema_does_not_describe_is_refused_naming_the_file(
    tmp_path: Path, phase: Phase, problem: str
) -> None:
    phases = Phases()
    phases.add(phase)
    with pytest.raises(RunError, match=problem) as raised:
        phases.write(tmp_path)
    assert str(tmp_path / "env.json") in str(raised.value)
    assert not (tmp_path / "env.json").exists()


def test_the_summary_is_one_line_with_the_builds_together() -> None:
    phases = Phases()
    go = Phase("build", 1.4, "go", CACHED, failed=True)
    for phase in (Phase("venv", 62.0), Phase("build", 700.0, "rust", COLD), go,
                  Phase("measure", 781.0)):  # fmt: skip
        phases.add(phase)
    line = phases.summary()
    assert "\n" not in line
    assert line == (
        "callbench: 25 min 44 s in all: venv 62.0 s; builds 11 min 41 s "
        "(rust 11 min 40 s cold, go 1.4 s cached FAILED); measure 13 min 1 s"
    )
    assert duration(119.94) == "119.9 s"


def test_a_build_is_cold_until_a_folder_it_reuses_holds_something(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CALLBENCH_CACHE_DIR", str(tmp_path))
    assert builds.how_it_begins("rust") == COLD
    (tmp_path / "rust-target").mkdir()
    assert builds.how_it_begins("rust") == COLD
    (tmp_path / "rust-target" / "release").mkdir()
    assert builds.how_it_begins("rust") == CACHED


def test_run_records_its_venv_build_and_measuring_and_a_second_invocation_adds_its_own(
    run_harness: Callable[..., HarnessRun],
) -> None:
    # The compiled floors were built by the tests session: a cached build.
    again = ("--run-id", "shared", "--only", "python-numpy", "--calls", "50", "--rounds", "2")
    first = run_harness("--build", *again, env={VENV_SECONDS: "12.5"})
    assert first.returncode == 0, first.stderr
    assert [(p["phase"], p.get("language"), p.get("build")) for p in first.env["phases"]] == [
        ("venv", None, None), ("build", "python", "cached"), ("measure", None, None)
    ]  # fmt: skip
    last = first.stdout.strip().splitlines()[-1]
    assert last.startswith("callbench: ") and "venv 12.5 s; builds " in last
    assert "(python " in last and " cached); measure " in last
    second = run_harness(*again, env={VENV_SECONDS: "1.0"})
    assert second.returncode == 0, second.stderr
    assert [p["phase"] for p in second.env["phases"]] == [
        "venv", "build", "measure", "venv", "measure"
    ]  # fmt: skip


def test_every_committed_runs_env_json_follows_the_schema(repo_root: Path) -> None:
    from callbench.records import schema
    from callbench.records.phases import SCHEMA_FILE

    envs = sorted((repo_root / "results" / "runs").glob("*/env.json"))
    assert envs
    for path in envs:
        found = [
            e.message
            for e in schema.validator(SCHEMA_FILE).iter_errors(json.loads(path.read_text()))
        ]
        assert not found, (path, found)


def test_the_report_tables_the_phases_and_their_whole() -> None:
    from callbench.report.sections import phases_table

    assert phases_table.section({"host": "h"}) == ""
    text = phases_table.section({"phases": [
        {"phase": "venv", "seconds": 61.0},
        {"phase": "build", "seconds": 700.4, "language": "rust", "build": "cold", "failed": True},
        {"phase": "measure", "seconds": 781.0},
    ]})  # fmt: skip
    assert "| venv | 61.0 s |  |" in text
    assert "| build rust (failed) | 11 min 40 s | cold |" in text
    assert text.splitlines()[-1] == "| all | 25 min 42 s | |"
    assert "cold when none of the folders it reuses" in text
