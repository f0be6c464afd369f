"""The report, built from small runs the real harness recorded."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from callbench import artifacts as art
from callbench.report.__main__ import main as report_main
from tests.conftest import HarnessRun

ONLY = ("--only", "python-numpy", "--only", "python-onnxruntime", "--only", "cpp-handwritten")


def small_run(run_harness: Callable[..., HarnessRun], models: Path, tmp_path: Path) -> Path:
    """A run with an ok, a failed (damaged ONNX) and a skipped (no C++ build) driver."""
    onnx_file = models / art.ONNX
    onnx_file.write_bytes(onnx_file.read_bytes()[:100])
    env = {"CALLBENCH_CPP_BIN": str(tmp_path / "no-cpp-build")}
    common = ("--models", str(models), "--calls", "200", "--repeats", "2", "--warmup", "5")
    run = run_harness(*common, *ONLY, env=env)
    assert run.returncode == 0, run.stderr
    assert run.run_dir is not None
    sweep = run_harness(*common, *ONLY, "--run-dir", str(run.run_dir), "--sweep", "batch",
                        "--sweep-values", "1,10", env=env)  # fmt: skip
    assert sweep.returncode == 0, sweep.stderr
    return run.run_dir


def test_report_shows_ok_failed_and_skipped_drivers_and_sweeps(
    run_harness: Callable[..., HarnessRun], models_copy: Path, tmp_path: Path
) -> None:
    run_dir = small_run(run_harness, models_copy, tmp_path)
    out = tmp_path / "results"
    assert report_main([str(run_dir), "--out", str(out)]) == 0
    text = (out / "report.md").read_text()
    rows: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("| `"):  # the first table, the per-driver one, wins
            rows.setdefault(line.split("|")[1].strip(), line)
    assert "| ok" in rows["`python-numpy`"]
    assert (
        "**failed**" in rows["`python-onnxruntime`"] and "mlp.onnx" in rows["`python-onnxruntime`"]
    )
    assert "**skipped**" in rows["`cpp-handwritten`"] and "not built" in rows["`cpp-handwritten`"]
    assert "124 s" in text and "`python-eager`" in text  # the seed's table
    assert "## Batch-size sweep" in text and "batch 10" in text
    assert run_dir.name in text and "git commit" in text
    charts = sorted((out / "charts").glob("*.png"))
    assert len(charts) == 2
    assert all(c.read_bytes().startswith(b"\x89PNG") for c in charts)


def test_runs_from_two_hosts_merge_side_by_side(
    run_harness: Callable[..., HarnessRun], models_copy: Path, tmp_path: Path
) -> None:
    first = small_run(run_harness, models_copy, tmp_path)
    second = tmp_path / "other-run"
    shutil.copytree(first, second)
    env_path = second / "env.json"
    env = json.loads(env_path.read_text())
    env.update(host="second-host", cpu="Another CPU")
    env_path.write_text(json.dumps(env))
    out = tmp_path / "merged"
    assert report_main([str(first), str(second), "--out", str(out)]) == 0
    text = (out / "report.md").read_text()
    assert "## Hosts side by side" in text
    header = next(line for line in text.splitlines() if line.startswith("| driver | "))
    assert "second-host · Another CPU" in header
    assert text.count("## Cost per call") == 2


def test_report_without_runs_says_what_to_do(tmp_path: Path, capsys: object) -> None:
    assert report_main([str(tmp_path / "nothing"), "--out", str(tmp_path)]) == 1
