"""Record validation and writing: what the report and users rely on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from callbench import records


def ok_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "driver": "python-numpy", "language": "Python", "runtime": "numpy",
        "runtime_version": "2.4.6", "artifact": "mlp_weights.f32",
        "calls": 10, "batch": 1, "threads": 1, "warmup": 0, "repeats": 2,
        "per_call_ns": [5000.0, 5100.5], "load_ms": 0.2, "peak_rss_mb": 40.0,
        "latency_ns": {"p50": 5000.0, "p90": 5100.0, "p99": 5200.0},
        "max_abs_error": 1e-6, "status": "ok", "error": None,
    }  # fmt: skip
    record.update(changes)
    return record


def test_a_complete_ok_record_is_valid() -> None:
    assert records.validate(ok_record()) == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"status": "great"}, "status"),
        ({"per_call_ns": [5000.0]}, "repeats"),
        ({"per_call_ns": [5000.0, -1.0]}, "positive"),
        ({"max_abs_error": None}, "max_abs_error"),
        ({"error": "boom"}, "carries an error"),
        ({"status": "failed", "error": None}, "must say why"),
        ({"driver": "Python Numpy"}, "driver id"),
        ({"calls": "10"}, "calls"),
        ({"calls": True}, "calls"),
    ],
)
def test_bad_records_are_named(changes: dict[str, Any], problem: str) -> None:
    found = records.validate(ok_record(**changes))
    assert any(problem in p for p in found), found


def test_missing_field_is_reported() -> None:
    record = ok_record()
    del record["load_ms"]
    assert "missing load_ms" in records.validate(record)


def test_write_record_refuses_an_invalid_record(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid record"):
        records.write_record(tmp_path, ok_record(status="failed"))
    assert list(tmp_path.iterdir()) == []


def test_write_record_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = records.write_record(tmp_path, ok_record())
    assert json.loads(path.read_text())["driver"] == "python-numpy"
    assert [p.name for p in tmp_path.iterdir()] == ["python-numpy.json"]


def test_run_dirs_never_collide(tmp_path: Path) -> None:
    made = {records.new_run_dir(tmp_path) for _ in range(50)}
    assert len(made) == 50


def test_failed_and_skipped_records_need_only_a_reason() -> None:
    for status in ("failed", "skipped"):
        record = ok_record(status=status, error="why", per_call_ns=[], max_abs_error=None)
        assert records.validate(record) == []
