package dev.callbench;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The driver's one call on a model of any inputs and outputs (contract
 * version 3: a user's ONNX model; our MLP is its one-input, one-output case),
 * loaded for batches of B samples: what a driver's load gives. Tensors travel
 * as raw little-endian bytes of their dtype, so one path serves every dtype.
 */
public interface TensorModel extends AutoCloseable {
    /** Every input and output, as the runtime read them from the model. */
    Signature signature();

    /**
     * Runs the forward pass on samples {@code [first, first + B)}: input k's are
     * the bytes of {@code inputs[k]} from {@code first * sampleBytes(k)}. Stores
     * every byte of output k's batch into {@code outputs[k]} at
     * {@code first * sampleBytes} of that output: storing them is how each call's
     * result is consumed. The buffers' positions and limits are not used.
     */
    void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) throws Exception;

    /**
     * Contract 7's {@code --gathered}: whether {@link #callGathered} makes a call of fewer than
     * B samples (the runtime takes a changing batch without reloading).
     */
    default boolean takesGathered() {
        return false;
    }

    /**
     * One call of the first {@code samples} samples of each input (1 &lt;= samples &lt;= B),
     * storing the first {@code samples} of each output, both from position 0: a batcher's
     * call at the size it gathered. Only a model that {@link #takesGathered} is asked.
     */
    default void callGathered(ByteBuffer[] inputs, ByteBuffer[] outputs, int samples) throws Exception {
        throw new UsageException(Batcher.FIXED_BATCH);
    }

    /** The runtime's version as the result line reports it (some runtimes only know it once loaded). */
    String runtimeVersion();

    /** The result line's notes: how the runtime is called and configured. */
    default Map<String, Object> notes() {
        return Map.of();
    }

    /** Frees the runtime's resources; unchecked, since a run has nothing left to do if it fails. */
    @Override
    void close();
}
