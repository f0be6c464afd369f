package dev.callbench;

import java.nio.file.Path;
import java.util.Arrays;

/** Checks that a model gives one output per sample ({@code [B, 1]}) before it is timed. */
public final class OutputShape {
    private OutputShape() {}

    public static void require(Path model, long[] shape, int batch) throws DataException {
        if (shape.length != 2 || shape[0] != batch || shape[1] != 1) {
            throw new DataException(model, "gives output shape " + Arrays.toString(shape)
                    + " for a batch of " + batch + ", expected [" + batch + ", 1]");
        }
    }
}
