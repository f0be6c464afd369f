package dev.callbench.drivers;

import dev.callbench.CallersDriver;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TakesCallers;
import dev.callbench.TakesCallers.Holding;
import dev.callbench.UsageException;
import java.nio.file.Path;
import java.util.Map;
import org.pytorch.Module;

/**
 * What both org.pytorch drivers share: the TorchScript artifact (loaded and
 * checked once, destroyed if the driver's call cannot be set up), the version
 * and the notes. A driver gives its id, what its call does, and the call on
 * every input and output the file's signature names (contract version 3).
 * Their callers (contract 4) each load a module of their own: org.pytorch's
 * documentation says nothing of calling one {@code Module}'s forward from many
 * threads at once, so no caller shares one.
 */
abstract class PytorchJavaFamily extends BoundFamily implements CallersDriver {
    PytorchJavaFamily(String id, String call) {
        super(id, call);
    }

    /** A driver's model over a loaded module; closing it destroys the module. */
    abstract static class Bound extends BoundFamily.Bound {
        final Module module;

        Bound(Module module, Signature signature) {
            super(signature, module::destroy);
            this.module = module;
        }
    }

    /** The driver's call over a loaded module whose outputs the signature describes (checked). */
    abstract Bound bind(Module module, int batch, Signature signature);

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
        Module module = PytorchModels.load(model, options.threads, options.batch, signature);
        Holding holding = new Holding(Holding.PER_CALLER, "a Module loaded by each caller "
                + "(org.pytorch documents nothing of one Module's forward from many threads)");
        return releasingOnFailure(module::destroy,
                () -> bind(module, options.batch, signature).describedBy(this).takingCallers(holding, () -> {
                    Module own = PytorchModels.load(model, options.threads, options.batch, signature);
                    return releasingOnFailure(own::destroy, () -> bind(own, options.batch, signature));
                }));
    }

    @Override
    final String runtimeVersion() {
        return PytorchModels.version();
    }

    @Override
    final Map<String, Object> runtimeNotes() {
        return PytorchModels.notes();
    }
}
