package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reads {@code inputs.f32}: float32 little-endian {@code [n, 2]}, checked before any timing. */
public final class Inputs {
    /** Floats per input sample (x1, x2). */
    public static final int WIDTH = 2;
    public static final int SAMPLE_BYTES = 4 * WIDTH;
    public static final String NAME = "inputs.f32";

    private Inputs() {}

    /**
     * The samples a run of {@code options} reads, from {@code --models}/inputs.f32:
     * {@code N*B} samples as a flat {@code float[N * B * 2]}. A file too short
     * for {@code N*B} is a usage error (the options ask too much); a broken
     * file is a {@link DataException} naming it.
     */
    public static float[] read(Options options) throws CallbenchException {
        Path path = options.models.resolve(NAME);
        requireSamples(options, path, countSamples(path));
        return read(path, options.samplesNeeded());
    }

    /** A usage error unless {@code available} samples in {@code path} are enough for the options. */
    public static void requireSamples(Options options, Path path, long available)
            throws UsageException {
        int needed = options.samplesNeeded();
        if (available < needed) {
            throw new UsageException("--calls " + options.calls + " x --batch "
                    + options.batch + " needs " + needed + " samples, " + path + " holds " + available);
        }
    }

    /** A {@link DataException} unless {@code --models}/inputs.f32 exists (read once the model is loaded). */
    public static void require(Options options) throws DataException {
        Path path = options.models.resolve(NAME);
        if (!Files.isRegularFile(path)) {
            throw new DataException(path, "missing; run `nox -s export` first");
        }
    }

    /** How many whole samples {@code path} holds; a size that is not a whole number is an error. */
    public static long countSamples(Path path) throws DataException {
        long sampleBytes = SAMPLE_BYTES;
        long size;
        try {
            size = Files.size(path);
        } catch (NoSuchFileException e) {
            throw new DataException(path, "missing; run `nox -s export` first");
        } catch (IOException e) {
            throw new DataException(path, "cannot be read (" + e.getMessage() + ")");
        }
        if (size == 0 || size % sampleBytes != 0) {
            throw new DataException(path, size + " bytes is not a whole number of samples ("
                    + sampleBytes + " bytes each)");
        }
        return size / sampleBytes;
    }

    /**
     * The first {@code needed} samples of {@code path} as a flat {@code float[needed * 2]}.
     * Fails if the file is not a whole number of samples, holds fewer than needed,
     * or any value read is NaN or Inf.
     */
    public static float[] read(Path path, int needed) throws DataException {
        long available = countSamples(path);
        if (available < needed) {
            throw new DataException(path, "holds " + available + " samples, the run needs " + needed);
        }
        float[] values = new float[needed * WIDTH];
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            while (bytes.hasRemaining()) {
                if (channel.read(bytes) < 0) {
                    throw new DataException(path, "ended early (file changed while reading?)");
                }
            }
        } catch (IOException e) {
            throw new DataException(path, "cannot be read (" + e.getMessage() + ")");
        }
        bytes.flip();
        bytes.asFloatBuffer().get(values);
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                throw new DataException(path, "sample " + (i / WIDTH) + " is NaN or Inf");
            }
        }
        return values;
    }
}
