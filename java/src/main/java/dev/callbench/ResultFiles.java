package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes the run's outputs (float32 LE) and per-call latencies (int64 LE) for the harness. */
public final class ResultFiles {
    private ResultFiles() {}

    public static void writeFloats(Path path, float[] values) throws DataException {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        write(path, bytes);
    }

    public static void writeLongs(Path path, long[] values) throws DataException {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asLongBuffer().put(values);
        write(path, bytes);
    }

    private static void write(Path path, ByteBuffer bytes) throws DataException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new DataException(path, "cannot be written (" + e + ")");
        }
    }
}
