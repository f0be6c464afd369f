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

    /**
     * The contract's warm-up: call {@code j} takes the samples of call {@code j mod N}, until
     * {@code count} calls, or until at least {@link Warmup#MIN_CALLS} and {@code seconds}
     * (&gt; 0) have passed. JIT warm-up happens here, through the loop the rounds run, in
     * blocks of calls with the clock read between them: without a time limit one block of
     * min(count, N), as before; with one, blocks sized to end near the budget.
     */
    public final Warmup warmUp(int count, double seconds) throws DataException {
        long start = System.nanoTime();
        long budget = (long) (seconds * 1e9);
        int least = Math.min(count, Warmup.MIN_CALLS);
        int done = 0;
        long block = budget > 0 ? 1 : maxCalls;
        while (done < count) {
            int at = done % maxCalls;
            int step = (int) Math.min(Math.min(maxCalls - at, count - done), block);
            calls(at, at + step);
            done += step;
            long elapsed = System.nanoTime() - start;
            if (budget > 0 && done >= least) {
                if (elapsed >= budget) {
                    break;
                }
                // As many calls as fit in what is left of the budget, at most twice the last block.
                block = Math.max(1, Math.min(2L * step, (budget - elapsed) * done / Math.max(elapsed, 1)));
            } else if (budget > 0) {
                block = 2L * step;
            }
        }
        return new Warmup(done, System.nanoTime() - start);
    }

    /** Poisons the outputs, then times calls {@code 0 .. calls-1} as one block. */
    @Override
    public final Round round(int calls) throws DataException {
        requireCalls(calls);
        // Outside the timing: a call that stores nothing leaves the poison, which the harness rejects.
        poison();
        long cpuStart = threadCpuNs();
        long start = System.nanoTime();
        calls(0, calls);
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

    private void calls(int first, int last) throws DataException {
        try {
            for (int i = first; i < last; i++) {
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
