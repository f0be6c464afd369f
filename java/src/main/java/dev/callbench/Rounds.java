package dev.callbench;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The rounds of a float {@link Model} (our MLP): call {@code i} reads samples
 * {@code [i*B, (i+1)*B)} of the inputs and stores its B outputs at
 * {@code [i*B, (i+1)*B)}; before each round the outputs are filled with NaN.
 * The timing is {@link CallLoop}'s.
 */
public final class Rounds extends CallLoop {
    private final Model model;
    private final float[] inputs;
    private final int batch;
    private final float[] outputs;
    private float[] scratch;

    /**
     * Rounds of at most {@code maxCalls} calls of {@code batch} samples over
     * {@code inputs} (at least {@code maxCalls * batch} samples). A failing
     * call becomes a {@link DataException} naming {@code modelPath}.
     */
    public Rounds(Model model, Path modelPath, float[] inputs, int maxCalls, int batch) {
        super(modelPath, maxCalls);
        if ((long) maxCalls * batch * Inputs.WIDTH > inputs.length) {
            throw new IllegalArgumentException(maxCalls + " calls of " + batch
                    + " samples need more inputs than " + inputs.length / Inputs.WIDTH + " samples");
        }
        this.model = model;
        this.inputs = inputs;
        this.batch = batch;
        this.outputs = new float[maxCalls * batch];
    }

    public int batch() {
        return batch;
    }

    @Override
    void call(int i, boolean toScratch) throws Exception {
        if (toScratch && scratch == null) {
            scratch = new float[outputs.length];
        }
        model.call(inputs, i * batch, toScratch ? scratch : outputs);
    }

    @Override
    void poison() {
        Arrays.fill(outputs, Float.NaN);
    }

    /** The last round's outputs: {@link #lastOutputCount()} values at the start of this buffer. */
    public float[] outputs() {
        return outputs;
    }

    /** K*B for the last round of K calls, 0 before any round. */
    public int lastOutputCount() {
        return lastCalls() * batch;
    }

    @Override
    public void writeOutputs(Path path) throws DataException {
        Outputs.writeFloats(path, outputs, lastOutputCount());
    }
}
