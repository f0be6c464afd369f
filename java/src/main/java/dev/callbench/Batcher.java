package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * Contract 7's dynamic batcher: the one caller's {@link Rounds}, its paced rounds served by a
 * batcher. A paced round's arrivals are gathered into calls of up to B ({@code --batch}) as a
 * service's batcher gathers them (Triton's {@code dynamic_batching}, TorchServe's
 * {@code batch_size} and {@code max_batch_delay}): it takes every arrival already due, up to
 * B; with fewer than B it waits until B have arrived or the oldest it holds has waited D
 * ({@code --max-delay}), then calls once. It knows the schedule, not the future: it waits for
 * an arrival only while the oldest may still wait, and waits out D when the next comes later,
 * as a batcher that cannot see it does. Arrival j takes sample j mod S (S: the samples the
 * run's inputs hold for its calls, {@code --calls} x B) and its outputs go to sample slot j
 * mod S; the call runs at B over buffers of its own, the places no arrival took padded with
 * the samples they last held (a fixed-shape runtime pays for padding, as in a service). Each
 * arrival keeps contract 6's three times: taken (when the batcher turned to it, negative when
 * it was waiting for it), started (its call's start, the copying of its samples in included)
 * and ended (the call's end, its outputs copied out included).
 */
public final class Batcher implements Runner {
    /** What {@code --max-delay} refuses beside {@code --callers N > 1}: one gatherer, over its own schedule. */
    public static final String ONE_GATHERER = "--max-delay takes one caller: the batcher gathers for one";
    /** What {@code --gathered} answers without {@code --max-delay}. */
    public static final String GATHERED_ALONE = "--gathered takes --max-delay: it sizes the batcher's calls";
    /** What {@code --gathered} answers from a driver whose model's call takes a fixed batch. */
    public static final String FIXED_BATCH = "--gathered is not supported: this driver's call takes a fixed batch";

    private final Rounds rounds;
    private final TensorModel model;
    private final Path modelPath;
    private final int batch;
    private final int slots; // S: the samples the run's inputs hold for its calls
    private final long maxDelayNs;
    private final ByteBuffer[] inputs; // each input's samples as read
    private final int[] inSample; // each tensor's bytes a sample
    private final int[] outSample;
    private final List<Tensor> outputTensors;
    private final ByteBuffer[] callIn; // the call's B places of each tensor
    private final ByteBuffer[] callOut;
    private final ByteBuffer[] served; // each output's S sample slots
    private final int[] which; // the sample slots of the call being gathered
    private int pacedSlots; // the sample slots the last paced round filled (0: a round's outputs are the last)
    private final boolean gathered; // each call at the size it gathered (TensorModel.callGathered)

    /** {@code rounds} are the one caller's over {@code model} and {@code inputs}, at {@code batch}. */
    public Batcher(Rounds rounds, TensorModel model, Path modelPath, List<Tensors.Samples> inputs,
            int maxCalls, int batch, long maxDelayUs, boolean gathered) {
        this.rounds = rounds;
        this.model = model;
        this.modelPath = modelPath;
        this.batch = batch;
        this.slots = maxCalls * batch;
        this.maxDelayNs = maxDelayUs * 1000;
        this.gathered = gathered;
        Signature signature = model.signature();
        this.inSample = signature.inputs().stream().mapToInt(Tensor::sampleBytes).toArray();
        this.outputTensors = signature.outputs();
        this.outSample = outputTensors.stream().mapToInt(Tensor::sampleBytes).toArray();
        this.inputs = new ByteBuffer[inSample.length];
        this.callIn = new ByteBuffer[inSample.length];
        for (int k = 0; k < inSample.length; k++) {
            this.inputs[k] = inputs.get(k).bytes();
            // The call's places start as the first B samples: padding is always a sample.
            callIn[k] = places(batch * inSample[k]).put(0, this.inputs[k], 0, batch * inSample[k]);
        }
        this.callOut = new ByteBuffer[outSample.length];
        this.served = new ByteBuffer[outSample.length];
        for (int k = 0; k < outSample.length; k++) {
            callOut[k] = places(batch * outSample[k]);
            served[k] = places(slots * outSample[k]);
        }
        this.which = new int[batch];
    }

    private static ByteBuffer places(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public int maxCalls() {
        return rounds.maxCalls();
    }

    @Override
    public Round round(int calls) throws DataException {
        pacedSlots = 0;
        return rounds.round(calls);
    }

    @Override
    public long[] latencies(int calls) throws DataException {
        return rounds.latencies(calls);
    }

    @Override
    public List<Round> done() {
        return rounds.done();
    }

    @Override
    public Pacing paced(long[] offsets, Long start) throws DataException {
        Pacing pacing = new Pacing(offsets, 1, slots);
        for (int k = 0; k < served.length; k++) {
            outputTensors.get(k).dtype().poison(served[k], 0, served[k].capacity());
        }
        pacedSlots = pacing.filled();
        pacing.begin(start);
        try {
            gather(pacing);
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw new DataException(modelPath, "failed while running: " + CallbenchException.oneLine(e), e);
        }
        return pacing;
    }

    /** Serves every arrival of {@code pacing} as the one batcher. */
    private void gather(Pacing pacing) throws Exception {
        long[] offsets = pacing.offsets;
        long[] times = pacing.times;
        long start = pacing.startNs;
        int count = offsets.length;
        long[] sizes = new long[batch]; // sizes[k - 1]: the calls that took k arrivals
        long end = start;
        try {
            int j = 0;
            while (j < count) {
                long now = System.nanoTime();
                long first = start + offsets[j];
                times[j] = now - first;
                if (now - first < 0) {
                    now = Pacing.waitUntil(first);
                }
                long deadline = first + maxDelayNs;
                int held = j + 1;
                while (held - j < batch) {
                    long due = held < count ? start + offsets[held] : 0;
                    if (held < count && due - now <= 0) { // already arrived: taken now
                        times[held] = now - due;
                    } else if (held < count && due - deadline <= 0) { // wait for it: the oldest may
                        times[held] = now - due;
                        now = Pacing.waitUntil(due);
                    } else { // none before the oldest has waited D: wait that out, then call
                        if (now - deadline < 0) {
                            Pacing.waitUntil(deadline);
                        }
                        break;
                    }
                    held++;
                }
                for (int i = j; i < held; i++) {
                    which[i - j] = i % slots;
                }
                long begin = System.nanoTime();
                call(held - j);
                end = System.nanoTime();
                for (int i = j; i < held; i++) {
                    times[count + i] = begin - (start + offsets[i]);
                    times[2 * count + i] = end - (start + offsets[i]);
                }
                sizes[held - j - 1]++;
                j = held;
            }
        } finally {
            pacing.servedByOne(end, sizes);
        }
    }

    /** One call of the {@code n} arrivals whose sample slots {@link #which} holds. */
    private void call(int n) throws Exception {
        for (int k = 0; k < callIn.length; k++) {
            int size = inSample[k];
            for (int i = 0; i < n; i++) {
                callIn[k].put(i * size, inputs[k], which[i] * size, size);
            }
        }
        if (gathered) {
            model.callGathered(callIn, callOut, n);
        } else {
            model.call(callIn, 0, callOut);
        }
        for (int k = 0; k < callOut.length; k++) {
            int size = outSample[k];
            for (int i = 0; i < n; i++) {
                served[k].put(which[i] * size, callOut[k], i * size, size);
            }
        }
    }

    /** A paced round's outputs by sample slot, or the last closed round's. */
    @Override
    public void writeOutputs(Path path) throws DataException {
        if (pacedSlots == 0) {
            rounds.writeOutputs(path);
            return;
        }
        ByteBuffer[] filled = new ByteBuffer[served.length];
        for (int k = 0; k < served.length; k++) {
            filled[k] = served[k].slice(0, pacedSlots * outSample[k]);
        }
        Outputs.writeOutputs(path, filled);
    }
}
