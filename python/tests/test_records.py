"""Records: the schema checks them, they round-trip with their raw samples, and writing
them fails in one line on a full or unwritable results folder."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from callbench.records import schema
from callbench.records.record import Record, Round
from callbench.records.store import ResultsError, load_run, new_run_dir, write_json, write_record


def ok_record(**changes: object) -> Record:
    record = Record(
        kind="driver", id="cpp-demo", language="C++", runtime="demo", status="ok",
        runtime_version="1.0", artifact="mlp.onnx", rounds=[Round(0, 10, 1000, 990)],
        load_ns=5, peak_rss_bytes=1 << 20, max_abs_error=1e-6, tolerance=1e-4,
    )  # fmt: skip
    for key, value in changes.items():
        setattr(record, key, value)
    return record


def run_folder(tmp_path: Path) -> Path:
    run_dir = new_run_dir(tmp_path / "runs")
    write_json(run_dir / "env.json", {"host": "h"})
    return run_dir


def test_a_record_round_trips_with_its_latency_samples(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path)
    samples = np.arange(1000, 2000, dtype="<i8")
    write_record(run_dir, ok_record(), samples)
    [back] = load_run(run_dir).drivers
    assert back.rounds == [Round(0, 10, 1000, 990)]
    assert back.median_ns == 100.0
    got = back.latency_samples()
    assert got is not None and np.array_equal(got, samples)


def test_records_are_readable_by_others(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path)
    path = write_record(run_dir, ok_record())
    mode = stat.S_IMODE(path.stat().st_mode)
    assert mode & stat.S_IROTH, oct(mode)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"status": "ok", "max_abs_error": None}, "max_abs_error"),
        ({"status": "ok", "rounds": []}, "rounds"),
        ({"status": "failed", "error": None}, "error"),
        ({"status": "skipped", "error": "x"}, "rounds"),
        ({"id": "Not An Id"}, "id"),
        ({"batch": 0}, "batch"),
    ],
)
def test_the_schema_refuses_a_malformed_record(change: dict[str, object], says: str) -> None:
    found = schema.problems(ok_record(**change).to_json())
    assert found and any(says in p for p in found), found


def test_a_kernel_record_needs_its_kernel_fields() -> None:
    data = ok_record(kind="kernel", id="kernel-exp-numpy").to_json()
    assert any("kernel" in p for p in schema.problems(data))


def test_another_schema_version_is_named_in_one_line(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path)
    data = ok_record().to_json()
    data["schema"] = 1
    (run_dir / "cpp-demo.json").write_text(json.dumps(data))
    with pytest.raises(schema.SchemaVersionError, match="schema version 1, this callbench reads"):
        load_run(run_dir)


def test_a_full_disk_is_one_line_and_keeps_earlier_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = run_folder(tmp_path)
    first = write_record(run_dir, ok_record())
    before = first.read_bytes()

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ResultsError, match="No space left on device") as caught:
        write_record(run_dir, ok_record(id="cpp-other"))
    assert "\n" not in str(caught.value) and str(run_dir) in str(caught.value)
    assert first.read_bytes() == before
    assert not [p for p in run_dir.iterdir() if p.name.startswith(".")]


def test_an_unwritable_results_folder_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(ResultsError, match="cannot write results"):
        new_run_dir(blocker / "runs")
