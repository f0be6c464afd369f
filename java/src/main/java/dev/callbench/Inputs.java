package dev.callbench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the inputs a run's calls take: each input's file by the naming rule
 * ({@link Tensors#tensorFile}), as the model's signature names them (our
 * MLP's: inputs.f32), checked before any timing.
 */
public final class Inputs {
    private Inputs() {}

    /**
     * Each input's file in {@code models} by the naming rule, checked: a whole,
     * non-zero number of samples, every float finite, the same sample count in
     * every file. Every problem is a {@link DataException} naming the file.
     */
    public static List<Tensors.Samples> read(Path models, Signature signature) throws DataException {
        List<Tensors.Samples> all = new ArrayList<>();
        List<Tensor> inputs = signature.inputs();
        for (int k = 0; k < inputs.size(); k++) {
            Path path = models.resolve(Tensors.tensorFile(Tensors.INPUTS_STEM, k, inputs.get(k).dtype()));
            Tensors.Samples samples = Tensors.read(path, inputs.get(k));
            if (k > 0 && samples.count() != all.get(0).count()) {
                throw new DataException(path, "holds " + samples.count() + " samples, "
                        + Tensors.tensorFile(Tensors.INPUTS_STEM, 0, inputs.get(0).dtype()) + " holds "
                        + all.get(0).count() + " (every input file holds the same samples)");
            }
            all.add(samples);
        }
        return all;
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
}
