package dev.callbench;

/**
 * The driver's one call on our MLP (one float32 input {@code [B, 2]}, one
 * output {@code [B, 1]}), loaded for batches of B samples; a model of any
 * inputs and outputs is a {@link TensorModel}.
 * The batch size is fixed when the model is loaded, so an implementation can
 * size its tensors once.
 */
public non-sealed interface Model extends LoadedModel {
    /**
     * Runs the forward pass on samples {@code [first, first + B)}, whose values
     * are {@code inputs[2 * first ...]}, and stores their B outputs at
     * {@code outputs[first ...]}. Storing them is how each call's result is
     * consumed, so the JIT cannot drop the work.
     */
    void call(float[] inputs, int first, float[] outputs) throws Exception;
}
