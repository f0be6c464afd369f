package dev.callbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The timed part of docs/contract.md for a {@link TensorModel} (our MLP's
 * among them): warm-up, one timed round, the latency pass. Call {@code i}
 * takes samples {@code [i*B, (i+1)*B)} of every input and stores each
 * output's batch at its place in that output's buffer; a round of K calls
 * runs calls {@code 0 .. K-1}, every output filled first with what no call
 * gives (NaN, an integer's smallest value). The clock is
 * {@code System.nanoTime}, the CPU clock the calling thread's
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}).
 */
public final class Rounds implements Runner {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final TensorModel model;
    private final Path modelPath;
    private final int maxCalls;
    private final ByteBuffer[] inputs;
    private final int batch;
    private final List<Tensor> outputTensors;
    private final ByteBuffer[] outputs; // each output's maxCalls*B samples; the last round's come first
    private ByteBuffer[] scratch; // the latency pass's, so the outputs keep the last round
    private int lastCalls;
    private final List<Round> done = new ArrayList<>();
    // A paced round's call, made once here: a lambda made at its first use would bootstrap
    // after the round's start, on the first arrival's clock.
    private final Pacing.SlotCall intoSlot = slot -> call(slot, false);

    /**
     * Rounds of at most {@code maxCalls} calls of {@code batch} samples; each
     * input holds enough. A failing call becomes a {@link DataException}
     * naming {@code modelPath}.
     */
    public Rounds(TensorModel model, Path modelPath, List<Tensors.Samples> inputs, int maxCalls, int batch) {
        this.model = model;
        this.modelPath = modelPath;
        this.maxCalls = maxCalls;
        this.inputs = new ByteBuffer[inputs.size()];
        for (int k = 0; k < inputs.size(); k++) {
            if ((long) maxCalls * batch > inputs.get(k).count()) {
                throw new IllegalArgumentException(maxCalls + " calls of " + batch
                        + " samples need more than the " + inputs.get(k).count() + " of input " + k);
            }
            this.inputs[k] = inputs.get(k).bytes();
        }
        this.batch = batch;
        this.outputTensors = model.signature().outputs();
        this.outputs = allocate();
    }

    private ByteBuffer[] allocate() {
        ByteBuffer[] all = new ByteBuffer[outputTensors.size()];
        for (int k = 0; k < all.length; k++) {
            all[k] = ByteBuffer.allocate(maxCalls * batch * outputTensors.get(k).sampleBytes())
                    .order(ByteOrder.LITTLE_ENDIAN);
        }
        return all;
    }

    /** Makes call {@code i} into the outputs' place {@code i}, or into a scratch buffer. */
    private void call(int i, boolean toScratch) throws Exception {
        if (toScratch && scratch == null) {
            scratch = allocate();
        }
        model.call(inputs, i * batch, toScratch ? scratch : outputs);
    }

    /** Fills every output with what no call gives. */
    private void poison() {
        for (int k = 0; k < outputs.length; k++) {
            outputTensors.get(k).dtype().poison(outputs[k], 0, outputs[k].capacity());
        }
    }

    /** Before a paced round: every output poisoned, its first {@code slots} calls the ones it leaves. */
    void poisonSlots(int slots) {
        poison();
        lastCalls = slots;
    }

    /** One caller serves every arrival, arrival j in slot j mod M of the run's buffers. */
    @Override
    public Pacing paced(long[] offsets, Long start) throws DataException {
        Pacing pacing = new Pacing(offsets, 1, maxCalls);
        poisonSlots(pacing.filled());
        pacing.begin(start);
        serveArrivals(pacing, 0);
        return pacing;
    }

    /** Caller {@code caller}'s part of a paced round: arrivals until none is left, in its slots. */
    void serveArrivals(Pacing pacing, int caller) throws DataException {
        try {
            pacing.serve(caller, intoSlot);
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw failedWhileRunning(e);
        }
    }

    /** Each output's last-round samples (K*B of them), in the model's order. */
    public ByteBuffer[] lastOutputs() {
        ByteBuffer[] last = new ByteBuffer[outputs.length];
        for (int k = 0; k < outputs.length; k++) {
            last[k] = outputs[k].slice(0, lastCalls * batch * outputTensors.get(k).sampleBytes());
        }
        return last;
    }

    /** Each output's last-round samples, one output after another in the model's order. */
    @Override
    public void writeOutputs(Path path) throws DataException {
        Outputs.writeOutputs(path, lastOutputs());
    }

    @Override
    public int maxCalls() {
        return maxCalls;
    }

    /**
     * The contract's warm-up: call {@code j} takes the samples of call {@code j mod N}, until
     * {@code count} calls, or until at least {@link Warmup#MIN_CALLS} and {@code seconds}
     * (&gt; 0) have passed. JIT warm-up happens here, through the loop the rounds run, in
     * blocks of calls with the clock read between them: without a time limit one block of
     * min(count, N), as before; with one, blocks sized to end near the budget.
     */
    public Warmup warmUp(int count, double seconds) throws DataException {
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
    public Round round(int calls) throws DataException {
        requireCalls(calls);
        // Outside the timing: a call that stores nothing leaves the poison, which the harness rejects.
        poison();
        long cpuStart = threadCpuNs();
        long start = System.nanoTime();
        calls(0, calls);
        long ns = System.nanoTime() - start;
        long cpuEnd = threadCpuNs();
        Round round = new Round(calls, ns,
                cpuStart < 0 || cpuEnd < 0 ? null : cpuEnd - cpuStart, start);
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
    public List<Round> done() {
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
