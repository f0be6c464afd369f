package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warm-up, rounds and the latency pass over a fake model of our MLP's signature (y = x1 + x2). */
class RoundsTest {
    @TempDir
    Path dir;

    private final SumDriver driver = new SumDriver();
    private final Rounds rounds = new Rounds(driver.model(2), Path.of("m"), TestFiles.inputs(10), 4, 2);

    /** The last round's outputs, as --outputs writes them. */
    private float[] lastOutputs() throws IOException, DataException {
        Path path = dir.resolve("outputs.f32");
        rounds.writeOutputs(path);
        return TestFiles.readFloats(path);
    }

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
    void aRoundRunsCallsZeroToKAndIsReported() throws Exception {
        Round round = rounds.round(3);
        assertEquals(List.of(0, 2, 4), driver.firsts);
        assertEquals(3, round.calls());
        assertTrue(round.ns() >= 0);
        assertNotNull(round.cpuNs(), "HotSpot measures the thread's CPU time");
        assertTrue(round.cpuNs() >= 0);
        rounds.round(1);
        assertEquals(List.of(3, 1), rounds.done().stream().map(Round::calls).toList());
        assertEquals(2, lastOutputs().length);
    }

    @Test
    void outputsAreFilledWithNaNBeforeEachRound() throws Exception {
        rounds.round(4);
        assertArrayEquals(new float[] {0f, -1f, -2f, -3f, -4f, -5f, -6f, -7f}, lastOutputs());
        driver.storeNothing = true;
        rounds.round(2);
        float[] nan = new float[4];
        Arrays.fill(nan, Float.NaN);
        assertArrayEquals(nan, lastOutputs());
    }

    @Test
    void latenciesLeaveTheLastRoundsOutputs() throws Exception {
        rounds.round(2);
        float[] before = lastOutputs();
        long[] each = rounds.latencies(4);
        assertEquals(4, each.length);
        assertArrayEquals(before, lastOutputs());
        assertEquals(4, before.length);
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
                () -> new Rounds(driver.model(2), Path.of("m"), TestFiles.inputs(7), 4, 2));
    }
}
