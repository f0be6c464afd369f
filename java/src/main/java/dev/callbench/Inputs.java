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
    public static float[] forRun(String driverId, Options options, int width)
            throws CallbenchException {
        Path path = options.models.resolve(NAME);
        int needed = options.samplesNeeded();
        long available = countSamples(path, width);
        if (available < needed) {
            throw new UsageException(driverId, "--calls " + options.calls + " x --batch "
                    + options.batch + " needs " + needed + " samples, " + path + " holds " + available);
        }
        return read(path, needed, width);
    }

    /** A {@link DataException} unless {@code --models}/inputs.f32 exists (read once the model is loaded). */
    public static void require(Options options) throws DataException {
        Path path = options.models.resolve(NAME);
        if (!Files.isRegularFile(path)) {
            throw new DataException(path, "missing; run `nox -s export` first");
        }
    }

    /**
     * A {@link DataException} about {@code model} unless the artifact set in {@code models}
     * fits its sample widths: reference.f32 (when there) {@code outputWidth} floats for
     * each of the samples of {@code inputWidth} floats in inputs.f32. A driver of a model
     * that says its own sizes calls it once loaded.
     */
    public static void checkSampleWidths(Path model, Path models, int inputWidth, int outputWidth)
            throws DataException {
        Path inputs = models.resolve(NAME);
        Path reference = models.resolve("reference.f32");
        if (!Files.isRegularFile(inputs) || inputWidth < 1) {
            return; // a missing file is named when it is read
        }
        try {
            long size = Files.size(inputs);
            long sample = 4L * inputWidth;
            long samples = size / sample;
            // Not a whole number of samples: reading inputs.f32 names that file.
            if (size % sample == 0 && Files.isRegularFile(reference) && samples > 0
                    && Files.size(reference) != samples * 4L * outputWidth) {
                throw new DataException(model, "takes " + inputWidth + " floats a sample and answers "
                        + outputWidth + "; " + reference + " (" + Files.size(reference)
                        + " bytes) does not hold " + outputWidth + " for each of the " + samples
                        + " samples of inputs.f32");
            }
        } catch (IOException e) {
            throw new DataException(inputs, "cannot be read (" + e.getMessage() + ")");
        }
    }

    /** How many whole samples {@code path} holds; a size that is not a whole number is an error. */
    public static long countSamples(Path path) throws DataException {
        return countSamples(path, WIDTH);
    }

    /** How many whole samples of {@code width} floats {@code path} holds. */
    public static long countSamples(Path path, int width) throws DataException {
        long sampleBytes = 4L * width;
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
        return read(path, needed, WIDTH);
    }

    /** The first {@code needed} samples of {@code width} floats each. */
    public static float[] read(Path path, int needed, int width) throws DataException {
        long available = countSamples(path, width);
        if (available < needed) {
            throw new DataException(path, "holds " + available + " samples, the run needs " + needed);
        }
        float[] values = new float[needed * width];
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
                throw new DataException(path, "sample " + (i / width) + " is NaN or Inf");
            }
        }
        return values;
    }
}
