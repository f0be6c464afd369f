package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Inputs;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * An ONNX model's one float input {@code [batch, F]} and one float output
 * {@code [batch, ...]} (ours: x [batch, 2] and y [batch, 1]; a user's model,
 * --onnx, its own), checked the same way whichever binding read them: the
 * Java API (JNI) or the C API (FFM).
 */
record OnnxSignature(String input, String output, int features, long[] outputShape) {
    /** One input or output as a session describes it. */
    record Port(String name, boolean isFloat, long[] shape) {}

    /** The signature of a model with these ports, checked against inputs.f32 and reference.f32. */
    static OnnxSignature of(Path model, long inputs, long outputs, Port input, Port output)
            throws DataException {
        if (inputs != 1 || outputs != 1) {
            throw new DataException(model, "has " + inputs + " inputs and " + outputs
                    + " outputs, expected 1 and 1");
        }
        long[] features = perSample(model, "input", input);
        if (features.length != 1) {
            throw new DataException(model, "input '" + input.name() + "' is not [batch, F]");
        }
        OnnxSignature io = new OnnxSignature(input.name(), output.name(), (int) features[0],
                perSample(model, "output", output));
        Inputs.checkSampleWidths(model, model.toAbsolutePath().getParent(), io.features(),
                io.outputWidth());
        return io;
    }

    /** Floats per output sample. */
    int outputWidth() {
        long width = 1;
        for (long d : outputShape) {
            width *= d;
        }
        return (int) width;
    }

    /** {@code [batch, ...outputShape]}. */
    long[] outputShape(int batch) {
        long[] shape = new long[outputShape.length + 1];
        shape[0] = batch;
        System.arraycopy(outputShape, 0, shape, 1, outputShape.length);
        return shape;
    }

    /** A float tensor's dimensions after the batch one, each fixed. */
    private static long[] perSample(Path model, String role, Port port) throws DataException {
        if (!port.isFloat()) {
            throw new DataException(model, role + " '" + port.name() + "' is not a float32 tensor");
        }
        long[] shape = port.shape();
        if (shape.length == 0) {
            throw new DataException(model, role + " '" + port.name() + "' is a scalar");
        }
        long[] rest = Arrays.copyOfRange(shape, 1, shape.length);
        for (long d : rest) {
            if (d < 1) {
                throw new DataException(model, role + " '" + port.name() + "' is "
                        + Arrays.toString(shape) + ": only the batch size may be symbolic");
            }
        }
        return rest;
    }
}
