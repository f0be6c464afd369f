"""``callbench profile``: a driver's frames with well-formed shares, and the overhead ladder's
steps all present and positive. No test asserts how long anything takes."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from callbench.errors import RunError
from callbench.profile.frames import Frame, Profile
from callbench.records import ladder as ladder_record
from callbench.report.sections.ladder import ladder_section
from tests.conftest import run_module

CLI = "callbench.cli.profile"
SHARE_ROW = re.compile(r"^\| (\d+\.\d)% \|")
STEP_NAMES = ["loop", "sample", "input", "call", "model", "store"]


def tables(text: str) -> list[list[float]]:
    """The share column of every table in the output, one list per table."""
    found: list[list[float]] = []
    for line in text.splitlines():
        if line.startswith("| share |"):
            found.append([])
        elif match := SHARE_ROW.match(line):
            found[-1].append(float(match.group(1)))
    return found


def assert_well_formed(shares: list[float]) -> None:
    assert shares, "an empty table"
    assert all(0.0 <= s <= 100.0 for s in shares), shares
    assert sum(shares) == pytest.approx(100.0, abs=0.1 * len(shares)), shares


def test_profile_prints_python_frames_with_shares(small_models: Path) -> None:
    done = run_module(CLI, "driver", "python-numpy", "--models", str(small_models),
                      "--calls", "500", "--warmup", "10", "--no-native")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Python frames (cProfile)" in done.stdout
    assert "numpy_forward.py" in done.stdout  # the driver's own loop is a frame
    found = tables(done.stdout)
    assert len(found) == 1
    assert_well_formed(found[0])


def test_profile_with_native_frames_where_py_spy_runs(small_models: Path, tmp_path: Path) -> None:
    flame = tmp_path / "flame.svg"
    done = run_module(CLI, "driver", "python-numpy", "--models", str(small_models),
                      "--calls", "500", "--warmup", "10", "--seconds", "1",
                      "--flame", str(flame))  # fmt: skip
    if "py-spy cannot run here" in done.stdout:
        pytest.skip(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0, done.stderr
    found = tables(done.stdout)
    assert len(found) == 3  # cProfile, py-spy frames, py-spy by library
    for shares in found:
        assert_well_formed(shares)
    assert flame.read_bytes().lstrip().startswith((b"<?xml", b"<svg"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["driver", "cpp-handwritten"], "is not a Python driver"),
        ([], "required: {driver,ladder}"),
        (["driver"], "required: driver"),
        (["driver", "python-numpy", "--run-dir", "x"], "unrecognized arguments: --run-dir"),
    ],
)
def test_profile_usage_errors_are_one_line(args: list[str], message: str) -> None:
    done = run_module(CLI, *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("callbench profile: usage: "), lines
    assert message in lines[0]


def test_shares_and_the_other_row_add_up() -> None:
    profile = Profile("cProfile", "s", 10, tuple(Frame(f"f{i}", float(i + 1), 1) for i in range(6)))
    top = profile.top(3)
    assert [f.name for f in top][:3] == ["f5", "f4", "f3"] and top[-1].own == 1 + 2 + 3
    assert sum(profile.share(f) for f in top) == pytest.approx(1.0)


def test_the_ladder_steps_are_present_and_measured(small_models: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = run_module(CLI, "ladder", "--models", str(small_models), "--calls", "2000",
                      "--rounds", "5", "--warmup", "10", "--run-dir", str(run_dir))  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((run_dir / ladder_record.FILE).read_text())
    assert data["schema"] == ladder_record.SCHEMA
    ladder = ladder_record.read(run_dir / ladder_record.FILE)
    assert [r.runtime for r in ladder.runtimes] == ["torch", "onnxruntime"]
    for runtime in ladder.runtimes:
        assert [s.name for s in runtime.steps] == STEP_NAMES
        for step in runtime.steps:
            assert len(runtime.loops[step.loop].ns) == 5
            # A difference of two timed loops: under load it may come out below zero,
            # and the report shows it so; its arithmetic is tested on synthetic figures below.
            assert math.isfinite(runtime.step_ns(step)), (runtime.runtime, step.name)
        assert runtime.full_ns > 0 and runtime.driver is not None
    section = ladder_section(run_dir, tmp_path / "charts")
    assert section is not None and section.startswith("## Where a call's time goes")
    assert (tmp_path / "charts" / "run-ladder.png").is_file()


def test_ladder_figures_come_from_the_raw_timings(tmp_path: Path) -> None:
    """Steps are medians of paired differences; the sum is checked against the full call."""
    loops = {"empty": [100, 120, 100], "work": [1100, 1120, 1300], "full": [1150, 1100, 1200]}
    record = {
        "schema": ladder_record.SCHEMA, "calls": 10, "repeats": 3, "batch": 1, "threads": 1,
        "python": "3.11", "runtimes": [{
            "runtime": "toy", "runtime_version": "1", "call": "work()",
            "loops": {k: {"code": k, "ns": v} for k, v in loops.items()},
            "steps": [{"name": "loop", "label": "loop", "loop": "empty", "minus": None},
                      {"name": "work", "label": "work", "loop": "work", "minus": "empty"}],
            "full": "full", "driver": None,
        }],
    }  # fmt: skip
    path = tmp_path / ladder_record.FILE
    path.write_text(json.dumps(record))
    toy = ladder_record.read(path).runtimes[0]
    assert [toy.step_ns(s) for s in toy.steps] == [10.0, 100.0]
    assert toy.full_ns == 115.0 and toy.sum_ns == 110.0
    assert toy.adds_up and toy.gap == pytest.approx(-5 / 115)
    assert ladder_section(tmp_path / "no-run", tmp_path) is None


def test_a_ladder_that_breaks_its_schema_is_named(tmp_path: Path) -> None:
    step = {"name": "loop", "label": "the empty loop", "loop": "empty", "minus": None}
    runtime = {
        "runtime": "torch", "runtime_version": "2", "call": "f(x)", "full": "empty",
        "loops": {"empty": {"code": "pass", "ns": [10, 11]}}, "steps": [step], "driver": None,
    }  # fmt: skip
    good = {"schema": ladder_record.SCHEMA, "calls": 10, "repeats": 2, "batch": 1,
            "threads": 1, "python": "3.11", "runtimes": [runtime]}  # fmt: skip
    path = tmp_path / ladder_record.FILE
    path.write_text(json.dumps(good))
    assert ladder_record.read(path).runtimes[0].adds_up
    path.write_text(json.dumps({**good, "runtimes": [{**runtime, "loops": {"empty": {}}}]}))
    with pytest.raises(RunError, match=r"ladder.json: invalid ladder: runtimes/0/loops/empty"):
        ladder_record.read(path)
