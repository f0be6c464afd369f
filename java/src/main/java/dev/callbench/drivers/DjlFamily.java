package dev.callbench.drivers;

import dev.callbench.CallersDriver;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TakesCallers;
import dev.callbench.TakesCallers.Holding;
import dev.callbench.UsageException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What both DJL drivers share: the engine's configuration, the TorchScript
 * artifact (loaded and checked once, closed if the driver's call cannot be set
 * up), the version and the notes. A driver gives its id, what its call does,
 * and the call on every input and output the file's signature names
 * (contract version 3). Their callers (contract 4) share the model, each with a
 * {@code Predictor} of its own: DJL's rule, a predictor is not thread-safe, one per
 * thread over one model.
 */
abstract class DjlFamily extends BoundFamily implements CallersDriver {
    DjlFamily(String id, String call) {
        super(id, call);
    }

    /** A driver's model over a loaded DJL model; closing it closes the model. */
    abstract static class Bound extends BoundFamily.Bound {
        final ai.djl.Model model;

        Bound(ai.djl.Model model, Signature signature) {
            super(signature, model::close);
            this.model = model;
        }
    }

    /** The driver's call over a loaded model whose outputs the signature describes (checked). */
    abstract Bound bind(ai.djl.Model loaded, int batch, Signature signature);

    @Override
    public final String artifact() {
        return PytorchModels.ARTIFACT;
    }

    @Override
    public final Path modelPath(Options options) throws UsageException {
        return PytorchModels.traceFor(options);
    }

    @Override
    public final TakesCallers load(Path model, Options options) throws Exception {
        Signature signature = TorchScriptSignature.read(model);
        DjlEngine.configure(options);
        ai.djl.Model loaded = DjlModels.load(model);
        return releasingOnFailure(loaded::close, () -> {
            DjlModels.checkOutputs(loaded, model, options.batch, signature);
            Holding holding = new Holding(Holding.SHARED,
                    "one ai.djl.Model; each caller its own Predictor (a Predictor is not thread-safe)");
            return bind(loaded, options.batch, signature).describedBy(this).takingCallers(holding,
                    () -> bind(loaded, options.batch, signature).overAnothersHandle());
        });
    }

    @Override
    final String runtimeVersion() {
        return DjlEngine.version();
    }

    @Override
    final Map<String, Object> runtimeNotes() {
        return DjlEngine.notes();
    }
}
