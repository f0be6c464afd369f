package dev.callbench.drivers;

import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.nio.file.Path;
import java.util.Map;
import org.pytorch.Module;

/**
 * What both org.pytorch drivers share: the TorchScript artifact (loaded and
 * checked once, destroyed if the driver's call cannot be set up), the version
 * and the notes. A driver gives its id, what its call does, and the call on
 * every input and output the file's signature names (contract version 3).
 */
abstract class PytorchJavaFamily extends BoundFamily {
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
    public final TensorModel load(Path model, Options options) throws Exception {
        Signature signature = TorchScriptSignature.read(model);
        Module module = PytorchModels.load(model, options.threads, options.batch, signature);
        return releasingOnFailure(module::destroy,
                () -> bind(module, options.batch, signature).describedBy(this));
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
