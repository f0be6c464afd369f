"""Many callers set up each runtime's documented way (ExecuTorch's XNNPACK workspace per
delegate instance, OpenVINO's CPU pinning off where a process has more than one caller or
CPU), each beside its runtime's default kept as a twin (roles.RUNTIME_DEFAULT), and
onnxruntime-web's runs in flight on one session taking turns rather than aborting."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from callbench.driver_options import Options
from callbench.registry import DRIVERS, language_key
from callbench.roles import CALLERS_ONLY, RUNTIME_DEFAULT
from callbench.runtimes import engine
from tests.conftest import HarnessRun, assert_verified

DEFAULTS = [d for d in DRIVERS if RUNTIME_DEFAULT in d.roles]


def test_every_runtime_default_row_names_its_row_of_the_same_runtime_and_holding() -> None:
    assert {d.id for d in DEFAULTS} >= {"cpp-executorch-method-shared-workspace",
                                         "cpp-openvino-static-pinned",
                                         "python-openvino-static-pinned"}  # fmt: skip
    by_id = {d.id: d for d in DRIVERS}
    for twin in DEFAULTS:
        assert CALLERS_ONLY in twin.roles, twin.id  # at one caller it is its row
        row = by_id.get(twin.default_of or "")
        assert row is not None, f"{twin.id} names no row: {twin.default_of}"
        assert (row.callers, language_key(row), engine(row.runtime)) == (
            twin.callers,
            language_key(twin),
            engine(twin.runtime),
        ), twin.id
        assert CALLERS_ONLY not in row.roles and RUNTIME_DEFAULT not in row.roles, row.id


def test_openvino_pins_for_one_caller_on_one_cpu_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openvino")
    from callbench.drivers import openvino_driver

    def on(cpus: set[int], callers: int) -> bool:
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: cpus)
        return openvino_driver.pins(Options(models=tmp_path, callers=callers))

    assert on({3}, 1)
    assert not on({3}, 2)
    assert not on({0, 1}, 1)  # N copies over the same cores, or an unpinned run


def _ready(*ids: str) -> list[str]:
    by_id = {d.id: d for d in DRIVERS}
    return [i for i in ids if by_id[i].available() is None]


def test_each_twin_and_its_row_say_their_set_up_at_two_callers(
    run_harness: Callable[..., HarnessRun],
) -> None:
    """The record's notes read the set-up back from the runtime: the row's and the default's."""
    ids = _ready("cpp-executorch-method", "cpp-executorch-method-shared-workspace",
                 "cpp-openvino-static", "cpp-openvino-static-pinned", "python-openvino-static",
                 "python-openvino-static-pinned")  # fmt: skip
    if not ids:
        pytest.skip("neither the C++ drivers nor OpenVINO's wheel are here")
    done = run_harness(*[a for i in ids for a in ("--only", i)], "--callers", "2", "--calls",
                       "300", "--rounds", "2")  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    assert_verified(done, [f"{i}@2" for i in ids], rounds=2, batch=1)
    said = {i: done.records[f"{i}@2"].notes for i in ids}
    expected = {
        "cpp-executorch-method": ("xnnpack_workspace_sharing", "disabled"),
        "cpp-executorch-method-shared-workspace": ("xnnpack_workspace_sharing", "global"),
        "cpp-openvino-static": ("enable_cpu_pinning", "false"),
        "cpp-openvino-static-pinned": ("cpu_pinning_set", "left at OpenVINO's default"),
        "python-openvino-static": ("enable_cpu_pinning", "False"),
        "python-openvino-static-pinned": ("cpu_pinning_set", "left at OpenVINO's default"),
    }
    for i in ids:
        key, value = expected[i]
        assert str(said[i].get(key, "")).startswith(value), (i, said[i])


def test_onnxruntime_web_holds_four_callers_in_flight_on_one_session(
    run_harness: Callable[..., HarnessRun],
) -> None:
    """4 runs in flight on one wasm session aborted; queued, every caller verifies."""
    if not _ready("node-onnxruntime-web"):
        pytest.skip("Node.js's packages are not installed here")
    done = run_harness("--only", "node-onnxruntime-web", "--callers", "4", "--calls", "300",
                       "--rounds", "2")  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    record = done.records["node-onnxruntime-web@4"]
    assert (record.status, record.callers_verified) == ("ok", 4), record.error
    assert "take turns" in str(record.notes.get("callers_how")), record.notes
