package dev.callbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The timed part of docs/contract.md, written once for every Java driver:
 * warm-up, one timed round, the latency pass. Call {@code i} reads samples
 * {@code [i*B, (i+1)*B)} and stores its outputs at {@code [i*B, (i+1)*B)}; a
 * round of K calls runs calls {@code 0 .. K-1}. The clock is
 * {@code System.nanoTime}, the CPU clock the calling thread's
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}).
 */
public final class Rounds implements Runner {
    /**
     * One timed round: K calls, their wall time and the calling thread's CPU
     * time over the same block ({@code cpuNs} null if the JVM cannot tell).
     * With one intra-op thread the runtimes compute on the calling thread, so
     * on a busy machine the CPU time shows the work without other processes' share.
     */
    public record Round(int calls, long ns, Long cpuNs) {}

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Model model;
    private final Path modelPath;
    private final float[] inputs;
    private final int maxCalls;
    private final int batch;
    private final float[] outputs;
    private float[] scratch;
    private int lastCalls;
    private final List<Round> done = new ArrayList<>();

    /**
     * Rounds of at most {@code maxCalls} calls of {@code batch} samples over
     * {@code inputs} (at least {@code maxCalls * batch} samples). A failing
     * call becomes a {@link DataException} naming {@code modelPath}.
     */
    public Rounds(Model model, Path modelPath, float[] inputs, int maxCalls, int batch) {
        if ((long) maxCalls * batch * Inputs.WIDTH > inputs.length) {
            throw new IllegalArgumentException(maxCalls + " calls of " + batch
                    + " samples need more inputs than " + inputs.length / Inputs.WIDTH + " samples");
        }
        this.model = model;
        this.modelPath = modelPath;
        this.inputs = inputs;
        this.maxCalls = maxCalls;
        this.batch = batch;
        this.outputs = new float[maxCalls * batch];
    }

    @Override
    public int maxCalls() {
        return maxCalls;
    }

    public int batch() {
        return batch;
    }

    /** Untimed calls; call {@code j} reads the samples of call {@code j mod N}. JIT warm-up happens here. */
    public void warmup(int count) throws DataException {
        for (int left = count; left > 0; left -= maxCalls) {
            callRange(Math.min(left, maxCalls), outputs);
        }
    }

    /** Fills the outputs with NaN, then times calls {@code 0 .. calls-1} as one block. */
    @Override
    public Round round(int calls) throws DataException {
        requireCalls(calls, maxCalls);
        // Outside the timing: a call that stores nothing leaves NaN, which the harness rejects.
        Arrays.fill(outputs, Float.NaN);
        long cpuStart = threadCpuNs();
        long start = System.nanoTime();
        callRange(calls, outputs);
        long ns = System.nanoTime() - start;
        long cpuEnd = threadCpuNs();
        Round round = new Round(calls, ns, cpuStart < 0 || cpuEnd < 0 ? null : cpuEnd - cpuStart);
        done.add(round);
        lastCalls = calls;
        return round;
    }

    /**
     * The duration in ns of each of calls {@code 0 .. calls-1}, timed one at a
     * time into a scratch buffer, so the outputs keep the last round.
     */
    @Override
    public long[] latencies(int calls) throws DataException {
        requireCalls(calls, maxCalls);
        if (scratch == null) {
            scratch = new float[outputs.length];
        }
        long[] each = new long[calls];
        try {
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                model.call(inputs, i * batch, scratch);
                each[i] = System.nanoTime() - start;
            }
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw failedWhileRunning(modelPath, e);
        }
        return each;
    }

    /** Every round so far, in the order run. */
    @Override
    public List<Round> done() {
        return Collections.unmodifiableList(done);
    }

    /** The last round's outputs: {@link #lastOutputCount()} values at the start of this buffer. */
    public float[] outputs() {
        return outputs;
    }

    /** K*B for the last round of K calls, 0 before any round. */
    public int lastOutputCount() {
        return lastCalls * batch;
    }

    @Override
    public void writeOutputs(Path path) throws DataException {
        Outputs.writeFloats(path, outputs, lastOutputCount());
    }

    private void callRange(int calls, float[] into) throws DataException {
        try {
            for (int i = 0; i < calls; i++) {
                model.call(inputs, i * batch, into);
            }
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw failedWhileRunning(modelPath, e);
        }
    }

    /** A call's failure as the contract's error, naming the model. */
    static DataException failedWhileRunning(Path modelPath, Throwable e) {
        return new DataException(modelPath, "failed while running: " + CallbenchException.oneLine(e), e);
    }

    static void requireCalls(int calls, int maxCalls) {
        if (calls < 1 || calls > maxCalls) {
            throw new IllegalArgumentException("calls " + calls + " outside 1.." + maxCalls);
        }
    }

    /** The calling thread's CPU time in ns, or -1 when the JVM cannot measure it. */
    static long threadCpuNs() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }
}
