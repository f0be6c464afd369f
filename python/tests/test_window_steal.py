"""Steal time read at each window's edges while a point runs, and the thread stopped after."""

from __future__ import annotations

import threading
import time

import pytest

from callbench.harness import machine
from callbench.harness.load import window_steal
from callbench.harness.load.window_steal import WindowSteal


def test_each_window_gets_the_steal_between_its_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = iter([100, 130, 190, 190])
    monkeypatch.setattr(machine, "steal_ns", lambda cpus: next(readings))
    now = time.monotonic_ns()
    with WindowSteal({0}, [now + i * 2_000_000 for i in range(4)]) as steal:
        time.sleep(0.05)
    assert steal.per_window() == [30, 60, 0]


def test_a_point_that_ends_early_stops_the_thread_and_leaves_its_windows_unread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(window_steal.machine, "steal_ns", lambda cpus: 7)
    now = time.monotonic_ns()
    before = threading.active_count()
    with WindowSteal(None, [now, now + 60 * 10**9, now + 120 * 10**9]) as steal:
        time.sleep(0.02)
    assert threading.active_count() == before
    assert steal.per_window() == [None, None]


def test_no_proc_stat_no_steal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "steal_ns", lambda cpus: None)
    now = time.monotonic_ns()
    with WindowSteal(None, [now, now]) as steal:
        time.sleep(0.01)
    assert steal.per_window() == [None]
