package dev.callbench;

import java.nio.file.Path;
import java.util.Arrays;

/** Checks that a model gives one output per sample ({@code [B, 1]}) before it is timed. */
public final class OutputShape {
    private OutputShape() {}

    /** {@code [batch, ...]} of {@code width} floats a sample (a user's model, --onnx). */
    public static void require(Path model, long[] shape, int batch, int width) throws DataException {
        long perSample = 1;
        for (int i = 1; i < shape.length; i++) {
            perSample *= shape[i];
        }
        if (shape.length < 1 || shape[0] != batch || perSample != width) {
            throw new DataException(model, "gives output shape " + Arrays.toString(shape)
                    + " for a batch of " + batch + ", expected " + batch + " rows of " + width
                    + " floats");
        }
    }

    public static void require(Path model, long[] shape, int batch) throws DataException {
        if (shape.length != 2 || shape[0] != batch || shape[1] != 1) {
            throw new DataException(model, "gives output shape " + Arrays.toString(shape)
                    + " for a batch of " + batch + ", expected [" + batch + ", 1]");
        }
    }
}
