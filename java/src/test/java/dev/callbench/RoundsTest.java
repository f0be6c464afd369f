package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Warm-up, rounds and the latency pass over a fake model (y = x1 + x2). */
class RoundsTest {
    private final SumDriver driver = new SumDriver();
    private final Rounds rounds = new Rounds(driver.model(2), Path.of("m"), TestFiles.samples(10), 4, 2);

    @Test
    void warmupWrapsAroundTheCalls() throws DataException {
        assertEquals(6, rounds.warmUp(6, 0).calls());
        assertEquals(List.of(0, 2, 4, 6, 0, 2), driver.firsts);
        assertTrue(rounds.done().isEmpty());
    }

    @Test
    void aWarmupByTimeMakesAFewCallsThenStopsAtItsBudget() throws DataException {
        // A budget of 1 ns is spent by the first block: the few calls (blocks 1, 2, 4), then the end.
        Warmup warmup = rounds.warmUp(10_000, 1e-9);
        assertTrue(warmup.calls() >= Warmup.MIN_CALLS && warmup.calls() <= 2 * Warmup.MIN_CALLS,
                warmup.toString());
        assertEquals(warmup.calls(), driver.firsts.size());
        // Still call j mod N for N = 4 (the first sample of call i is 2i).
        for (int j = 0; j < warmup.calls(); j++) {
            assertEquals(2 * (j % 4), driver.firsts.get(j));
        }
        assertEquals(2, rounds.warmUp(2, 1e-9).calls()); // fewer asked: the cap wins
        assertEquals(1000, rounds.warmUp(1000, 1000).calls()); // a budget far off: the cap ends it
    }

    @Test
    void aRoundRunsCallsZeroToKAndIsReported() throws DataException {
        Round round = rounds.round(3);
        assertEquals(List.of(0, 2, 4), driver.firsts);
        assertEquals(3, round.calls());
        assertTrue(round.ns() >= 0);
        assertNotNull(round.cpuNs(), "HotSpot measures the thread's CPU time");
        assertTrue(round.cpuNs() >= 0);
        rounds.round(1);
        assertEquals(List.of(3, 1), rounds.done().stream().map(Round::calls).toList());
        assertEquals(2, rounds.lastOutputCount());
    }

    @Test
    void outputsAreFilledWithNaNBeforeEachRound() throws DataException {
        rounds.round(4);
        assertArrayEquals(new float[] {0f, -1f, -2f, -3f, -4f, -5f, -6f, -7f}, rounds.outputs());
        driver.storeNothing = true;
        rounds.round(2);
        float[] nan = new float[8];
        Arrays.fill(nan, Float.NaN);
        assertArrayEquals(nan, rounds.outputs());
    }

    @Test
    void latenciesLeaveTheLastRoundsOutputs() throws DataException {
        rounds.round(2);
        float[] before = rounds.outputs().clone();
        long[] each = rounds.latencies(4);
        assertEquals(4, each.length);
        assertArrayEquals(before, rounds.outputs());
        assertEquals(4, rounds.lastOutputCount());
        assertEquals(List.of(0, 2, 0, 2, 4, 6), driver.firsts);
        assertEquals(1, rounds.done().size());
    }

    @Test
    void aFailingCallNamesTheModel() {
        driver.failure = new IllegalStateException("native crash\ndetail");
        DataException e = assertThrows(DataException.class, () -> rounds.round(1));
        assertEquals("m: failed while running: native crash", e.getMessage());
        assertThrows(DataException.class, () -> rounds.latencies(1));
        assertThrows(DataException.class, () -> rounds.warmUp(1, 0));
    }

    @Test
    void tooFewInputsForTheCallsIsABug() {
        assertThrows(IllegalArgumentException.class,
                () -> new Rounds(driver.model(2), Path.of("m"), TestFiles.samples(7), 4, 2));
    }
}
