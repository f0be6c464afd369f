package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The rounds of a {@link TensorModel} (contract version 3), as {@link Rounds}
 * are of a float {@link Model}: warm-up, one timed round, the latency pass.
 * Call {@code i} takes samples {@code [i*B, (i+1)*B)} of every input and
 * stores each output's batch at its place in that output's buffer; before
 * each round every output is filled with what no call gives (NaN, an
 * integer's smallest value).
 */
public final class TensorRounds implements Runner {
    private final TensorModel model;
    private final Path modelPath;
    private final ByteBuffer[] inputs;
    private final int maxCalls;
    private final int batch;
    private final List<Tensor> outputTensors;
    private final ByteBuffer[] outputs; // each output's maxCalls*B samples; the last round's come first
    private ByteBuffer[] scratch; // the latency pass's, so the outputs keep the last round
    private int lastCalls;
    private final List<Rounds.Round> done = new ArrayList<>();

    /** Rounds of at most {@code maxCalls} calls of {@code batch} samples; each input holds enough. */
    public TensorRounds(TensorModel model, Path modelPath, List<Tensors.Samples> inputs, int maxCalls,
            int batch) {
        this.model = model;
        this.modelPath = modelPath;
        this.inputs = new ByteBuffer[inputs.size()];
        for (int k = 0; k < inputs.size(); k++) {
            if ((long) maxCalls * batch > inputs.get(k).count()) {
                throw new IllegalArgumentException(maxCalls + " calls of " + batch
                        + " samples need more than the " + inputs.get(k).count() + " of input " + k);
            }
            this.inputs[k] = inputs.get(k).bytes();
        }
        this.maxCalls = maxCalls;
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

    @Override
    public int maxCalls() {
        return maxCalls;
    }

    /** Untimed calls; call {@code j} takes the samples of call {@code j mod N}. JIT warm-up happens here. */
    public void warmup(int count) throws DataException {
        for (int left = count; left > 0; left -= maxCalls) {
            callRange(Math.min(left, maxCalls), outputs);
        }
    }

    @Override
    public Rounds.Round round(int calls) throws DataException {
        Rounds.requireCalls(calls, maxCalls);
        // Outside the timing: a call that stores nothing leaves the poison, which the harness rejects.
        for (int k = 0; k < outputs.length; k++) {
            outputTensors.get(k).dtype().poison(outputs[k], 0,
                    calls * batch * outputTensors.get(k).sampleBytes());
        }
        long cpuStart = Rounds.threadCpuNs();
        long start = System.nanoTime();
        callRange(calls, outputs);
        long ns = System.nanoTime() - start;
        long cpuEnd = Rounds.threadCpuNs();
        Rounds.Round round = new Rounds.Round(calls, ns,
                cpuStart < 0 || cpuEnd < 0 ? null : cpuEnd - cpuStart);
        done.add(round);
        lastCalls = calls;
        return round;
    }

    @Override
    public long[] latencies(int calls) throws DataException {
        Rounds.requireCalls(calls, maxCalls);
        if (scratch == null) {
            scratch = allocate();
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
            throw Rounds.failedWhileRunning(modelPath, e);
        }
        return each;
    }

    @Override
    public List<Rounds.Round> done() {
        return Collections.unmodifiableList(done);
    }

    /** Each output's last-round samples (K*B of them), one output after another in the model's order. */
    @Override
    public void writeOutputs(Path path) throws DataException {
        ByteBuffer[] last = new ByteBuffer[outputs.length];
        for (int k = 0; k < outputs.length; k++) {
            last[k] = outputs[k].slice(0, lastCalls * batch * outputTensors.get(k).sampleBytes());
        }
        Outputs.writeBytes(path, last);
    }

    private void callRange(int calls, ByteBuffer[] into) throws DataException {
        try {
            for (int i = 0; i < calls; i++) {
                model.call(inputs, i * batch, into);
            }
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw Rounds.failedWhileRunning(modelPath, e);
        }
    }
}
