package dev.callbench;

/**
 * What a driver's load gives: a {@link Model} (our MLP's float32 input and
 * output) or a {@link TensorModel} (any inputs and outputs, contract version
 * 3). {@link DriverMain} picks the path from which one it is.
 */
public sealed interface LoadedModel extends AutoCloseable permits Model, TensorModel {
    /** Frees the runtime's resources; unchecked, since a run has nothing left to do if it fails. */
    @Override
    void close();
}
