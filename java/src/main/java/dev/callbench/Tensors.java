package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of contract version 3: each input's samples and each output's
 * reference values, one raw little-endian file per tensor named by its place
 * and dtype alone (inputs.f32, inputs1.i64, reference.f32, reference1.i64,
 * ...), and reading them, checked before any timing.
 */
public final class Tensors {
    public static final String INPUTS_STEM = "inputs";
    public static final String REFERENCE_STEM = "reference";

    private Tensors() {}

    /** One input's samples: {@code count} of them, little-endian, in a heap buffer of that order. */
    public record Samples(ByteBuffer bytes, int count) {}

    /**
     * The file of tensor {@code index} of a stem by the naming rule:
     * {@code ("inputs", 0, FLOAT32)} is inputs.f32, {@code ("reference", 1, INT64)} reference1.i64.
     */
    public static String tensorFile(String stem, int index, Dtype dtype) {
        return stem + (index > 0 ? Integer.toString(index) : "") + "." + dtype.extension();
    }

    /** {@code tensor}'s file, checked: a whole, non-zero number of samples, every float finite. */
    static Samples read(Path path, Tensor tensor) throws DataException {
        byte[] data;
        try {
            data = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new DataException(path, "missing; run `nox -s export` first");
        } catch (IOException e) {
            throw new DataException(path, "cannot be read (" + e.getMessage() + ")");
        }
        int sample = tensor.sampleBytes();
        if (data.length == 0 || data.length % sample != 0) {
            throw new DataException(path, data.length + " bytes is not a whole number of samples of '"
                    + tensor.name() + "' (" + sample + " bytes each)");
        }
        ByteBuffer bytes = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int width = tensor.dtype().bytes();
        for (int at = 0; at < data.length; at += width) {
            if (!tensor.dtype().finite(bytes, at)) {
                throw new DataException(path, "sample " + (at / sample) + " of '" + tensor.name()
                        + "' is NaN or Inf");
            }
        }
        return new Samples(bytes, data.length / sample);
    }

    /**
     * A {@link DataException} about {@code model} unless every reference file in
     * {@code models} (by the naming rule) holds one sample of its output for each
     * sample of the first input's file: a model that answers another shape than
     * the one its reference was made with fails at load, naming the model. A
     * missing or partial file is left to the reading that names it.
     */
    public static void checkReferences(Path model, Path models, Signature signature)
            throws DataException {
        if (signature.inputs().isEmpty()) {
            return;
        }
        Tensor first = signature.inputs().get(0);
        try {
            Path inputs = models.resolve(tensorFile(INPUTS_STEM, 0, first.dtype()));
            if (!Files.isRegularFile(inputs) || first.sampleBytes() == 0
                    || Files.size(inputs) % first.sampleBytes() != 0) {
                return;
            }
            long samples = Files.size(inputs) / first.sampleBytes();
            List<Tensor> outputs = signature.outputs();
            for (int k = 0; k < outputs.size(); k++) {
                Tensor output = outputs.get(k);
                Path reference = models.resolve(tensorFile(REFERENCE_STEM, k, output.dtype()));
                if (Files.isRegularFile(reference)
                        && Files.size(reference) != samples * output.sampleBytes()) {
                    throw new DataException(model, "answers " + output.describe() + " a sample; "
                            + reference + " (" + Files.size(reference)
                            + " bytes) does not hold one for each of the " + samples
                            + " samples of the inputs");
                }
            }
        } catch (IOException e) {
            throw new DataException(models, "cannot be read (" + e.getMessage() + ")");
        }
    }
}
