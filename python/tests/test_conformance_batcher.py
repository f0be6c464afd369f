"""Contract 7's dynamic batcher, the same in every kit that has one (``--max-delay US`` with
``--batch B``): each kit's callers test driver (test_conformance.py) serves a paced round's
arrivals in calls of up to B, each arrival's sample and output at its own slot."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from callbench.driverkit.batcher import ONE_GATHERER
from callbench.registry import DRIVERS, lookup
from callbench.roles import GATHERED
from tests.conftest import require_available, run_driver
from tests.test_conformance import STALL_NS, PacedRound, callers_test_driver, paced_round

# Every kit has the batcher; Node.js's test driver both ways (at one caller, the same path).
BATCHER_KITS = ["python", "cpp", "go", "rust", "java", "node", "node-in-flight"]
BATCH, CALLS = 4, 50  # the run's arrays hold CALLS x BATCH = SAMPLES samples
SAMPLES = BATCH * CALLS
GAP_NS = 1_000_000


def batched_round(
    kit: str, mode: str, offsets: np.ndarray, max_delay_us: int, models: Path, tmp_path: Path,
    then: str = "", gathered: bool = False,
) -> PacedRound:  # fmt: skip
    """One ``paced FILE START`` round of ``offsets`` served by the batcher at BATCH with
    --max-delay ``max_delay_us`` (and ``--gathered``), then the command ``then`` (if any)
    before ``end``."""
    batcher = ["--batch", str(BATCH), "--max-delay", str(max_delay_us),
               *(["--gathered"] if gathered else [])]  # fmt: skip
    return paced_round(kit, mode, 1, models, tmp_path, CALLS, offsets=offsets, then=then,
                       options=batcher)  # fmt: skip


def reference(models: Path) -> np.ndarray:
    return np.fromfile(models / "reference.f32", dtype="<f4")


@pytest.mark.parametrize("kit", BATCHER_KITS)
def test_far_below_capacity_each_call_takes_one_arrival_after_the_longest_wait(
    kit: str, small_models: Path, tmp_path: Path
) -> None:
    # An arrival a millisecond, D 100 µs: the batcher, waiting for an arrival, holds it alone
    # for D (it cannot know the next is a millisecond away), then calls with it alone. On a
    # busy host a neighbour's stall of a few milliseconds leaves it behind for a few arrivals
    # (in the whole suite: a few calls of 2 to 4 after one), which it then takes together, as a
    # batcher should; so this holds each arrival it was waiting for, and asks for many.
    delay_us = 100
    done = batched_round(kit, "ok", GAP_NS * np.arange(SAMPLES), delay_us, small_models,
                         tmp_path)  # fmt: skip
    answer = done.answer
    assert answer["calls"] == SAMPLES == answer["slots"] and answer["caller_calls"] == [SAMPLES]
    sizes = answer["batch_sizes"]
    assert len(sizes) == BATCH and sum(k * n for k, n in enumerate(sizes, 1)) == SAMPLES
    waited_for = np.flatnonzero(done.taken < 0)
    assert len(waited_for) >= SAMPLES // 4, done.taken
    assert (done.started[waited_for] >= delay_us * 1000).all()
    # An arrival shares its call with the one before it (one start: their started differ by
    # exactly the gap between their due times) only when it had arrived by the time the
    # batcher turned to it: it never waits past D for a next arrival a millisecond away.
    joined = 1 + np.flatnonzero(done.started[:-1] - done.started[1:] == GAP_NS)
    assert (done.taken[joined] >= 0).all(), joined
    assert (done.taken <= done.started).all() and (done.started <= done.ended).all()
    assert np.abs(done.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4


@pytest.mark.parametrize("kit", BATCHER_KITS)
def test_a_burst_of_b_arrivals_is_one_call_without_the_wait(
    kit: str, small_models: Path, tmp_path: Path
) -> None:
    # B arrivals at once, a millisecond apart, D a whole second: each burst fills a call, and
    # a full call does not wait for D (had it, the round would take 50 s and every wait be
    # a second).
    offsets = GAP_NS * (np.arange(SAMPLES) // BATCH)
    done = batched_round(kit, "ok", offsets, 1_000_000, small_models, tmp_path)
    assert done.answer["batch_sizes"] == [0, 0, 0, CALLS]
    # The four of a burst share their call: one start and one end, from one due time.
    for times in (done.started, done.ended):
        assert (times.reshape(CALLS, BATCH) == times[::BATCH, None]).all()
    assert (done.started < 500_000_000).all()
    assert np.abs(done.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4


@pytest.mark.parametrize("kit", BATCHER_KITS)
def test_a_stall_shows_in_the_waits_of_the_arrivals_behind_it(
    kit: str, small_models: Path, tmp_path: Path
) -> None:
    # The batcher's first call sleeps 50 ms (stall-at-call-0: its calls run at call 0's
    # places): the arrivals due meanwhile queue, their waits carry what was left of the stall,
    # and the batcher drains them B a call, each from its own sample.
    # A batcher that woke past the second arrival's due time takes it into the stalled call
    # (with D 0 it takes whatever is due): those share arrival 0's start and carry no wait
    # behind the stall (in the whole suite, both kits' first calls woke 1.3-1.5 ms late once).
    offsets = GAP_NS * np.arange(SAMPLES)
    done = batched_round(kit, "stall-at-call-0", offsets, 0, small_models, tmp_path)
    in_stalled = np.flatnonzero(done.started + offsets == done.started[0])
    assert (in_stalled == np.arange(len(in_stalled))).all() and len(in_stalled) <= BATCH
    queued = np.arange(len(in_stalled), STALL_NS // GAP_NS - 5)
    assert (done.started[queued] >= STALL_NS - queued * GAP_NS).all()
    sizes = done.answer["batch_sizes"]
    assert sizes[BATCH - 1] >= 5 and sum(k * n for k, n in enumerate(sizes, 1)) == SAMPLES
    assert np.abs(done.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4


@pytest.mark.parametrize("kit", BATCHER_KITS)
def test_arrivals_past_the_samples_wrap_and_a_closed_round_after_is_the_models(
    kit: str, small_models: Path, tmp_path: Path
) -> None:
    # Twice the samples, in bursts of three: arrival j takes sample j mod S and leaves its
    # outputs at slot j mod S (calls straddle the wrap), and the closed round after it calls
    # the samples as read (the batcher's gathering left call 0's places as they were).
    offsets = GAP_NS * (np.arange(2 * SAMPLES) // 3)
    done = batched_round(kit, "ok", offsets, 0, small_models, tmp_path)
    assert done.answer["slots"] == SAMPLES and done.answer["calls"] == 2 * SAMPLES
    assert np.abs(done.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4
    after = batched_round(kit, "ok", offsets, 0, small_models, tmp_path, then=f"round {CALLS}")
    assert np.abs(after.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4


# The kits whose callers test driver takes --gathered (its call of n samples the forward over
# n, the samples those calls took in its result line's notes).
GATHERED_KITS = ["python", "cpp"]


@pytest.mark.parametrize("kit", GATHERED_KITS)
def test_a_gathered_call_takes_only_the_arrivals_it_gathered(
    kit: str, small_models: Path, tmp_path: Path
) -> None:
    # Bursts of three, a millisecond apart, D 0: each call takes what has arrived, at its size,
    # not padded to B = 4 (a batcher woken late takes a burst and part of the next: the calls
    # of 4 and of the rest); the samples every call took are the arrivals (a padded batcher's
    # calls would take B each: 4 x 67 = 268 for 200 arrivals in bursts of three).
    offsets = GAP_NS * (np.arange(SAMPLES) // 3)
    done = batched_round(kit, "ok", offsets, 0, small_models, tmp_path, gathered=True)
    sizes = done.answer["batch_sizes"]
    assert sum(k * n for k, n in enumerate(sizes, 1)) == SAMPLES and sizes[2] > 0
    assert done.result["notes"]["gathered_samples"] == SAMPLES
    assert np.abs(done.outputs - reference(small_models)[:SAMPLES]).max() < 1e-4


# The rows whose runtime takes a changing batch and say so (their registry line's gathered).
GATHERED_DRIVERS = [s.id for s in DRIVERS if GATHERED in s.roles]


@pytest.mark.parametrize("driver_id", GATHERED_DRIVERS)
def test_a_runtimes_gathered_calls_give_the_models_outputs(
    driver_id: str, small_models: Path, tmp_path: Path
) -> None:
    spec = lookup(driver_id)
    require_available(spec)
    schedule, outputs, latencies = tmp_path / "a.i64", tmp_path / "o.f32", tmp_path / "l.i64"
    (GAP_NS * (np.arange(SAMPLES) // 3)).astype("<i8").tofile(schedule)  # bursts of three
    done = run_driver(spec, "--models", str(small_models), "--calls", str(CALLS), "--batch",
                      str(BATCH), "--warmup", "5", "--max-delay", "0", "--gathered", "--serve",
                      "--outputs", str(outputs), "--latencies", str(latencies),
                      stdin=f"paced {schedule}\nend\n")  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    ready, paced, result = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["event"] == "ready" and paced["event"] == "paced"
    assert sum(k * n for k, n in enumerate(paced["batch_sizes"], 1)) == SAMPLES
    assert "gathered_call" in result["notes"], result["notes"]
    got = np.fromfile(outputs, dtype="<f4")
    assert np.abs(got - reference(small_models)[:SAMPLES]).max() < 1e-4


@pytest.mark.parametrize("kit", BATCHER_KITS)
def test_the_batcher_gathers_for_one_caller(kit: str, small_models: Path) -> None:
    done = subprocess.run(
        [*callers_test_driver(kit, "ok"), "--models", str(small_models), "--batch", "4",
         "--max-delay", "10", "--callers", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == f"{kit}-callers: usage: {ONE_GATHERER}"
