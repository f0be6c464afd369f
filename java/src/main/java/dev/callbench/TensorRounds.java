package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * The rounds of a {@link TensorModel} (contract version 3), as {@link Rounds}
 * are of a float {@link Model}: call {@code i} takes samples
 * {@code [i*B, (i+1)*B)} of every input and stores each output's batch at its
 * place in that output's buffer; before each round every output is filled
 * with what no call gives (NaN, an integer's smallest value). The timing is
 * {@link CallLoop}'s.
 */
public final class TensorRounds extends CallLoop {
    private final TensorModel model;
    private final ByteBuffer[] inputs;
    private final int batch;
    private final List<Tensor> outputTensors;
    private final ByteBuffer[] outputs; // each output's maxCalls*B samples; the last round's come first
    private ByteBuffer[] scratch; // the latency pass's, so the outputs keep the last round

    /** Rounds of at most {@code maxCalls} calls of {@code batch} samples; each input holds enough. */
    public TensorRounds(TensorModel model, Path modelPath, List<Tensors.Samples> inputs, int maxCalls,
            int batch) {
        super(modelPath, maxCalls);
        this.model = model;
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
            all[k] = ByteBuffer.allocate(maxCalls() * batch * outputTensors.get(k).sampleBytes())
                    .order(ByteOrder.LITTLE_ENDIAN);
        }
        return all;
    }

    @Override
    void call(int i, boolean toScratch) throws Exception {
        if (toScratch && scratch == null) {
            scratch = allocate();
        }
        model.call(inputs, i * batch, toScratch ? scratch : outputs);
    }

    @Override
    void poison() {
        for (int k = 0; k < outputs.length; k++) {
            outputTensors.get(k).dtype().poison(outputs[k], 0, outputs[k].capacity());
        }
    }

    /** Each output's last-round samples (K*B of them), one output after another in the model's order. */
    @Override
    public void writeOutputs(Path path) throws DataException {
        ByteBuffer[] last = new ByteBuffer[outputs.length];
        for (int k = 0; k < outputs.length; k++) {
            last[k] = outputs[k].slice(0, lastCalls() * batch * outputTensors.get(k).sampleBytes());
        }
        Outputs.writeOutputs(path, last);
    }
}
