package dev.callbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The timed part of docs/contract.md, written once for both kinds of rounds
 * ({@link Rounds} of a {@link Model}, {@link TensorRounds} of a
 * {@link TensorModel}): warm-up, one timed round, the latency pass. Call
 * {@code i} takes samples {@code [i*B, (i+1)*B)} and stores its outputs at
 * their place; a round of K calls runs calls {@code 0 .. K-1}. The clock is
 * {@code System.nanoTime}, the CPU clock the calling thread's
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}). A kind of rounds says how
 * to make call {@code i} and how to poison its outputs.
 */
abstract class CallLoop implements Runner {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Path modelPath;
    private final int maxCalls;
    private int lastCalls;
    private final List<Round> done = new ArrayList<>();

    /** A failing call becomes a {@link DataException} naming {@code modelPath}. */
    CallLoop(Path modelPath, int maxCalls) {
        this.modelPath = modelPath;
        this.maxCalls = maxCalls;
    }

    /** Makes call {@code i} into the outputs' place {@code i}, or into a scratch buffer. */
    abstract void call(int i, boolean scratch) throws Exception;

    /** Fills the outputs with what no call gives. */
    abstract void poison();

    @Override
    public final int maxCalls() {
        return maxCalls;
    }

    /** K of the last round of K calls, 0 before any round. */
    final int lastCalls() {
        return lastCalls;
    }

    /** Untimed calls; call {@code j} takes the samples of call {@code j mod N}. JIT warm-up happens here. */
    public final void warmup(int count) throws DataException {
        for (int left = count; left > 0; left -= maxCalls) {
            calls(Math.min(left, maxCalls));
        }
    }

    /** Poisons the outputs, then times calls {@code 0 .. calls-1} as one block. */
    @Override
    public final Round round(int calls) throws DataException {
        requireCalls(calls);
        // Outside the timing: a call that stores nothing leaves the poison, which the harness rejects.
        poison();
        long cpuStart = threadCpuNs();
        long start = System.nanoTime();
        calls(calls);
        long ns = System.nanoTime() - start;
        long cpuEnd = threadCpuNs();
        Round round = new Round(calls, ns,
                cpuStart < 0 || cpuEnd < 0 ? null : cpuEnd - cpuStart);
        done.add(round);
        lastCalls = calls;
        return round;
    }

    /**
     * The duration in ns of each of calls {@code 0 .. calls-1}, timed one at a
     * time into a scratch buffer, so the outputs keep the last round.
     */
    @Override
    public final long[] latencies(int calls) throws DataException {
        requireCalls(calls);
        long[] each = new long[calls];
        try {
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                call(i, true);
                each[i] = System.nanoTime() - start;
            }
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw failedWhileRunning(e);
        }
        return each;
    }

    @Override
    public final List<Round> done() {
        return Collections.unmodifiableList(done);
    }

    private void calls(int calls) throws DataException {
        try {
            for (int i = 0; i < calls; i++) {
                call(i, false);
            }
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw failedWhileRunning(e);
        }
    }

    private DataException failedWhileRunning(Throwable e) {
        return new DataException(modelPath, "failed while running: " + CallbenchException.oneLine(e), e);
    }

    private void requireCalls(int calls) {
        if (calls < 1 || calls > maxCalls) {
            throw new IllegalArgumentException("calls " + calls + " outside 1.." + maxCalls);
        }
    }

    /** The calling thread's CPU time in ns, or -1 when the JVM cannot measure it. */
    private static long threadCpuNs() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }
}
