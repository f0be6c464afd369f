package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Little-endian float files for the tests. */
final class TestFiles {
    private TestFiles() {}

    static Path writeFloats(Path path, float... values) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        return Files.write(path, bytes.array());
    }

    static float[] readFloats(Path path) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        float[] values = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(values);
        return values;
    }

    static long[] readLongs(Path path) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        long[] values = new long[bytes.remaining() / 8];
        bytes.asLongBuffer().get(values);
        return values;
    }

    /** {@link #samples} as our MLP's one input, ready for {@link Rounds}. */
    static java.util.List<Tensors.Samples> inputs(int count) {
        float[] values = samples(count);
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        return java.util.List.of(new Tensors.Samples(bytes, count));
    }

    /** {@code count} samples (x1, x2) = (i, -2i) for i = 0..count-1. */
    static float[] samples(int count) {
        float[] values = new float[2 * count];
        for (int i = 0; i < count; i++) {
            values[2 * i] = i;
            values[2 * i + 1] = -2f * i;
        }
        return values;
    }
}
