package dev.callbench;

/**
 * The driver's one call: a loaded model, called once per batch of B samples.
 * The batch size is fixed when the model is loaded, so an implementation can
 * size its tensors once.
 */
public interface Model extends AutoCloseable {
    /**
     * Runs the forward pass on samples {@code [first, first + B)}, whose values
     * are {@code inputs[F * first ...]}, and stores their {@code B * O} outputs
     * at {@code outputs[O * first ...]} (F and O: {@link #inputWidth()} and
     * {@link #outputWidth()}). Storing them is how each call's result is
     * consumed, so the JIT cannot drop the work.
     */
    void call(float[] inputs, int first, float[] outputs) throws Exception;

    /** Floats per input sample: our MLP's 2, unless the model says its own (a user's, --onnx). */
    default int inputWidth() {
        return Inputs.WIDTH;
    }

    /** Floats per output sample: our MLP's 1, unless the model says its own. */
    default int outputWidth() {
        return 1;
    }

    /** Frees the runtime's resources; unchecked, since a run has nothing left to do if it fails. */
    @Override
    void close();
}
