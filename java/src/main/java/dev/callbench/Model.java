package dev.callbench;

/**
 * The driver's one call: a loaded model, called once per batch of B samples.
 * The batch size is fixed when the model is loaded, so an implementation can
 * size its tensors once.
 */
public interface Model extends AutoCloseable {
    /**
     * Runs the forward pass on samples {@code [first, first + B)}, whose values
     * are {@code inputs[2 * first ...]}, and stores the B outputs at
     * {@code outputs[first ...]}. Storing them is how each call's result is
     * consumed, so the JIT cannot drop the work.
     */
    void call(float[] inputs, int first, float[] outputs) throws Exception;

    /** Frees the runtime's resources; unchecked, since a run has nothing left to do if it fails. */
    @Override
    void close();
}
