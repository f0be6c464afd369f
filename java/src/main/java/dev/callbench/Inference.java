package dev.callbench;

/**
 * A loaded model ready to be called, one call per batch of samples. The batch
 * size is fixed when the model is loaded, so an implementation can size its
 * tensors once.
 */
public interface Inference extends AutoCloseable {
    /**
     * Runs the forward pass on samples {@code [first, first + batch)}, whose
     * values are {@code inputs[2 * first ...]}, and stores the {@code batch}
     * outputs at {@code outputs[first ...]}. Storing them is how each call's
     * result is consumed, so the JIT cannot drop the work.
     */
    void call(float[] inputs, int first, float[] outputs) throws Exception;

    /** Frees the runtime's resources; unchecked, since a run has nothing left to do if it fails. */
    @Override
    void close();
}
