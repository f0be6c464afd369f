"""The seeds' micro-benchmarks: every kernel at a tiny size, verified; records and CLI.

No test asserts a time: only that kernels run, agree with their references,
and that the records and the report say what happened.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from callbench.kernels import batchdot, cuda, elementwise
from callbench.kernels.cli import known_ids, selector
from callbench.kernels.kernel import Kernel, Labels
from callbench.kernels.record import make_record
from callbench.kernels.runner import run_all, run_kernel
from callbench.kernels.timing import measure
from callbench.kernels.verify import spot_check
from callbench.records import schema
from callbench.records.record import Record, Round
from callbench.records.schema import RecordError
from callbench.records.store import load_run, write_record
from callbench.report.sections import kernels as report

PYTHON_DIR = Path(__file__).resolve().parents[1]
TINY = 12  # elementwise side: every code path, no time to speak of
FAST: dict[str, Any] = {"threads": 1, "repeats": 2, "min_repeat_s": 0.0}


def _only(kernel: str) -> Any:
    return lambda candidate: candidate == kernel


def _records(items: Any) -> list[Record]:
    return run_all(items, **FAST)


def _assert_valid(record: Record) -> None:
    """The record follows docs/record.schema.json, as write_record will check."""
    assert record.kind == "kernel"
    assert schema.problems(record.to_json()) == [], record.id


def _assert_verified(record: Record) -> None:
    _assert_valid(record)
    assert record.status == "ok", record.error
    assert record.max_abs_error is not None and record.tolerance is not None
    assert record.max_abs_error <= record.tolerance
    assert [r.index for r in record.rounds] == [0, 1]
    assert all(r.calls >= 1 and r.ns >= 1 and r.cpu_ns is not None for r in record.rounds)
    assert record.threads == 1


@pytest.mark.parametrize("kernel", elementwise.ids())
def test_elementwise_kernel_runs_and_matches_reference(kernel: str) -> None:
    (record,) = _records(elementwise.kernels(TINY, _only(kernel)))
    assert record.id == kernel
    assert record.kernel is not None
    assert record.kernel["family"] == "elementwise"
    assert record.kernel["shape"] == [TINY, TINY]
    if kernel == "kernel-erf-numexpr":
        assert record.status == "skipped"
        assert "numexpr has no erf" in (record.error or "")
        _assert_valid(record)
    else:
        _assert_verified(record)


@pytest.mark.parametrize("kernel", batchdot.ids())
def test_batchdot_kernel_runs_and_matches_reference(kernel: str) -> None:
    (record,) = _records(batchdot.kernels(4, 8, _only(kernel)))
    assert record.id == kernel
    assert record.kernel is not None and record.kernel["shape"] == [4, 8]
    _assert_verified(record)


def test_seed_ids_exist() -> None:
    ids = set(known_ids())
    for expected in (
        "kernel-exp-numpy",
        "kernel-exp-numexpr",
        "kernel-exp-torch",
        "kernel-exp-torch-copy",
        "kernel-erf-scipy",
        "kernel-tanh-numexpr",
        "kernel-logsumexp-scipy",
        "kernel-batchdot-bmm",
        "kernel-batchdot-backward-mulsum",
        "kernel-batchdot-einsum",
        "kernel-batchdot-matmul",
        "kernel-cuda-h2d-torch",
        "kernel-cuda-transpose-scale-cupy-pool",
    ):
        assert expected in ids
    assert len(ids) == len(known_ids()), "kernel ids must be unique"


def test_cuda_family_runs_or_says_why() -> None:
    records = _records(cuda.kernels(TINY))
    assert {r.id for r in records} == set(cuda.ids())
    have_cuda = torch.cuda.is_available()
    for record in records:
        _assert_valid(record)
        assert record.kernel is not None
        if record.kernel["device"] == "cpu":  # the NumPy references of the CuPy rows
            _assert_verified(record)
        elif record.status == "skipped":
            assert (record.error or "").startswith(("no CUDA device", "cupy not installed"))
            assert record.rounds == []
            if record.runtime == "torch":
                assert not have_cuda
        else:
            _assert_verified(record)


def _labels(kernel: str = "kernel-test-wrong") -> Labels:
    return Labels(kernel, "elementwise", "test", "wrong", "numpy", np.__version__, [4], "float64")


def test_wrong_result_is_failed_not_timed_as_ok() -> None:
    x = np.linspace(0.0, 1.0, 4)
    ref = np.exp(x)
    wrong = Kernel(
        _labels(), lambda: np.exp(x) + 1e-6, lambda r: float(np.max(np.abs(r - ref))), 1e-12
    )
    record = run_kernel(wrong, **FAST)
    assert record.status == "failed"
    assert "exceeds tolerance" in (record.error or "")
    assert len(record.rounds) == 2  # timed, but not ok: the report shows no time
    _assert_valid(record)


def test_wrong_shape_and_exceptions_are_failed_with_one_line() -> None:
    from callbench.kernels.verify import max_abs_error

    ref = np.zeros(4)
    shape = Kernel(_labels(), lambda: np.zeros(5), lambda r: max_abs_error(r, ref), 1.0)
    record = run_kernel(shape, **FAST)
    assert record.status == "failed" and record.max_abs_error is None
    _assert_valid(record)

    def boom() -> object:
        raise RuntimeError("device lost\nsecond line")

    record = run_kernel(Kernel(_labels(), boom, lambda r: 0.0, 1.0), **FAST)
    assert record.status == "failed"
    assert record.error == "RuntimeError: device lost"
    assert record.rounds == []
    _assert_valid(record)


def test_spot_check_catches_a_wrong_reference() -> None:
    x = np.linspace(0.0, 1.0, 50)
    assert spot_check(np.exp(x), x, math.exp) is None
    assert spot_check(np.exp(x) * (1 + 1e-9), x, math.exp) is not None


def test_measure_keeps_every_repeat_and_the_last_result() -> None:
    calls: list[int] = []

    def call() -> int:
        calls.append(1)
        return len(calls)

    m = measure(call, repeats=3, warmup=2, min_repeat_s=0.0)
    assert len(m.repeat_ns) == 3 and len(m.cpu_ns) == 3
    assert m.last == len(calls)
    assert len(calls) == m.untimed_calls + 3 * m.calls_per_repeat
    with pytest.raises(ValueError):
        measure(call, repeats=0, warmup=0, min_repeat_s=0.0)


def test_kernel_records_carry_labels_and_notes() -> None:
    labels = Labels("kernel-test-note", "elementwise", "test", "note", "numpy", None, [4],
                    "float64", notes="a note", reference="kernel-test-numpy")  # fmt: skip
    record = make_record(labels, threads=3, status="skipped", error="no CUDA device")
    assert (record.kind, record.id, record.language, record.batch, record.threads) == (
        "kernel", "kernel-test-note", "Python", 1, 3)  # fmt: skip
    assert record.artifact is None and record.runtime_version is None
    assert record.kernel == {"family": "elementwise", "op": "test", "impl": "note",
                             "shape": [4], "dtype": "float64", "device": "cpu",
                             "reference": "kernel-test-numpy"}  # fmt: skip
    assert record.notes == {"note": "a note"}
    assert make_record(_labels(), threads=1, status="skipped", error="x").notes == {}
    _assert_valid(record)


@pytest.mark.parametrize(
    "changes",
    [
        {"status": "skipped", "error": None},  # skipped without a reason
        {"status": "ok", "error": None, "rounds": [Round(0, 1, 5)], "max_abs_error": None},
        {"status": "skipped", "rounds": [Round(0, 1, 5)]},  # a skipped kernel with timings
        {"id": "exp-numpy"},  # kernel ids start with kernel-
        {"kernel": {"family": "elementwise"}},  # labels missing
    ],
)
def test_write_record_refuses_bad_kernel_records(tmp_path: Path, changes: dict[str, Any]) -> None:
    good = make_record(_labels(), threads=1, status="skipped", error="no CUDA device")
    assert write_record(tmp_path, good).is_file()
    bad = Record(**{**good.to_json(), **changes})
    with pytest.raises(RecordError):
        write_record(tmp_path / "bad", bad)
    assert not (tmp_path / "bad").exists() or list((tmp_path / "bad").iterdir()) == []


def test_selector_reads_prefixes() -> None:
    wanted = selector(["exp", "kernel-batchdot-backward"])
    assert wanted("kernel-exp-numpy") and wanted("kernel-batchdot-backward-bmm")
    assert not wanted("kernel-expm1-numpy") and not wanted("kernel-batchdot-bmm")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(PYTHON_DIR), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "callbench.kernels", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_cli_writes_valid_records_and_env(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    done = _cli("--size", "8", "--repeats", "2", "--min-repeat-time", "0", "--threads", "2",
                "--runs-dir", str(runs))  # fmt: skip
    assert done.returncode == 0, done.stderr
    (run_dir,) = list(runs.iterdir())
    run = load_run(run_dir)  # the one loader: every record checked against the schema
    env = run.env
    assert env["threads"] == 2 and "numexpr" in env["versions"]
    assert run.drivers == [] and run.records == run.kernels
    assert {r.id for r in run.kernels} == set(known_ids())
    assert env["effective_threads"]["torch"] == 2
    assert env["effective_threads"]["numexpr"] == 2
    assert env["effective_threads"]["OMP_NUM_THREADS"] == "2"
    for record in run.kernels:
        assert record.threads == 2
        assert record.status in ("ok", "skipped"), record.error
    section = report.kernel_section(run.kernels, env)
    assert "| `kernel-exp-numpy` |" in section
    assert "965" in section  # the seed's np.exp figure beside ours


def test_cli_adds_to_an_existing_run_without_touching_its_env(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "env.json").write_text('{"from": "harness"}\n')
    done = _cli("--size", "8", "--repeats", "1", "--min-repeat-time", "0", "--only", "exp",
                "--run-dir", str(run_dir))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((run_dir / "env.json").read_text()) == {"from": "harness"}
    written = {p.stem for p in run_dir.glob("kernel-*.json")}
    assert written == {i for i in known_ids() if i.startswith("kernel-exp-")}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "nothing-like-this"], "matches no kernel"),
        (["--threads", "0"], "below the minimum 1"),
    ],
)
def test_cli_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    done = _cli(*args, "--runs-dir", str(tmp_path))
    assert done.returncode == 2
    assert message in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_report_section_ignores_other_records_and_hides_unchecked_times() -> None:
    driver = Record(kind="driver", id="python-eager", language="Python", runtime="torch",
                    status="ok", rounds=[Round(0, 10, 100)], max_abs_error=0.0)  # fmt: skip
    assert report.kernel_section([driver], {}) == ""
    failed = make_record(_labels("kernel-exp-numexpr"), threads=1, status="failed",
                         error="max abs error 1 exceeds tolerance 1e-12")  # fmt: skip
    failed.rounds = [Round(0, 1, 5_000_000), Round(1, 1, 6_000_000)]
    section = report.kernel_section([failed], {"threads": 1})
    row = next(line for line in section.splitlines() if "kernel-exp-numexpr" in line)
    assert "failed: max abs error" in row
    assert "| 5 |" not in row and "5-6" not in row  # no time shown for an unchecked result
    assert "89.8" in row  # the seed's figure is still there


def test_report_section_shows_median_interval_and_ratio() -> None:
    def ok(labels: Labels, ms: list[float]) -> Record:
        record = make_record(labels, threads=1, status="ok", max_abs_error=0.0, tolerance=1e-12)
        record.rounds = [Round(i, 1, int(v * 1e6)) for i, v in enumerate(ms)]
        return record

    base = Labels("kernel-exp-numpy", "elementwise", "exp", "numpy", "numpy", "2", [4],
                  "float64", reference="kernel-exp-numpy")  # fmt: skip
    torch_labels = Labels("kernel-exp-torch", "elementwise", "exp", "torch", "torch", "2", [4],
                          "float64", reference="kernel-exp-numpy")  # fmt: skip
    section = report.kernel_section(
        [ok(base, [10.0, 10.0, 10.0]), ok(torch_labels, [2.0, 2.5, 3.0])], {}
    )
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if "`kernel-" in line}
    assert "| 10 | 10-10 | 1 |" in rows["`kernel-exp-numpy`"]
    assert "| 2.5 | 2-3 ⚠ | 0.25 |" in rows["`kernel-exp-torch`"]


def test_report_reads_both_env_formats() -> None:
    record = make_record(_labels(), threads=1, status="skipped", error="no CUDA device")
    ours = report.kernel_section(
        [record], {"cpu": "CPU-A", "cpu_count": 2, "versions": {"numpy": "9"}}
    )
    harness = report.kernel_section(
        [record], {"cpu": "CPU-B", "cores": 4, "packages": {"torch": "8"}}
    )
    assert "CPU-A (2 logical cores)" in ours and "numpy 9" in ours
    assert "CPU-B (4 logical cores)" in harness and "torch 8" in harness
