package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes {@code --outputs} (float32 LE, or each output's raw bytes) and {@code --latencies} (int64 LE ns) for the harness. */
public final class Outputs {
    private Outputs() {}

    /** Each buffer's bytes from 0 to its limit, one after another (a model's outputs, contract 3). */
    public static void writeOutputs(Path path, ByteBuffer[] buffers) throws DataException {
        int total = 0;
        for (ByteBuffer b : buffers) {
            total += b.limit();
        }
        ByteBuffer bytes = ByteBuffer.allocate(total);
        for (ByteBuffer b : buffers) {
            bytes.put(b.duplicate().rewind());
        }
        bytes.flip();
        write(path, bytes);
    }

    public static void writeInt64s(Path path, long[] values) throws DataException {
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
