package dev.callbench;

import java.nio.file.Path;

/**
 * What a driver class gives the kit: who it is, its artifact, and how to load
 * its {@link TensorModel}.
 */
public interface Driver {
    /** The registry's id, echoed in the result line, e.g. {@code java-onnxruntime}. */
    String id();

    /** The artifact file name under {@code --models}, e.g. {@code mlp.onnx}. */
    String artifact();

    /**
     * The file under {@code --models} the driver loads with these options: its
     * {@link #artifact()}, unless it finds another for its batch (the TorchScript
     * rows: a trace per batch, {@code PytorchModels.traceFor}).
     */
    default Path modelPath(Options options) throws UsageException {
        return options.models.resolve(artifact());
    }

    /**
     * Loads {@code model} for calls of {@code options.batch} samples using
     * {@code options.threads} intra-op threads. Any exception becomes a
     * one-line error naming {@code model}.
     */
    TensorModel load(Path model, Options options) throws Exception;
}
