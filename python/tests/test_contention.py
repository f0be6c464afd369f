"""The contention probe: timed where it is told, and summarised from raw probes."""

from __future__ import annotations

import os

from callbench.harness.contention_probe import Probe
from callbench.records import contention


def test_the_probe_runs_on_the_drivers_cpus_and_gives_the_harness_its_own_back() -> None:
    home = os.sched_getaffinity(0)
    driver = {max(home)}
    probe = Probe(driver)
    assert probe() > 0
    assert os.sched_getaffinity(0) == home


def test_a_steady_core_reads_as_steady() -> None:
    line = contention.describe([1_000_000] * 20)
    assert "x1.00 to x1.00" in line and "20 probes" in line
    assert "noisy" not in line


def test_a_core_slowed_in_some_rounds_reads_as_noisy() -> None:
    probes = [1_000_000] * 15 + [1_500_000] * 5
    found = contention.spread(probes)
    assert found is not None and found["p10"] == 1.0 and found["p90"] == 1.5
    assert "noisy machine" in contention.describe(probes)


def test_too_few_probes_say_nothing_about_the_spread() -> None:
    assert contention.spread([1, 2, 3]) is None
    assert "too few" in contention.describe([1, 2, 3])


def test_probes_before_and_after_rounds_are_each_read_against_their_own_median() -> None:
    # Before a round the table is still cached (1 ms), after it partly evicted (2 ms):
    # steady in both series, however far apart the two are.
    line = contention.describe([1_000_000] * 10, [2_000_000] * 10)
    assert "medians 1.00 ms before, 2.00 ms after" in line and "x1.00 to x1.00" in line
    assert "noisy" not in line
    assert contention.ratios([1, 1, 4], [2, 2]) == [1.0, 1.0, 4.0, 1.0, 1.0]
