package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Driver;
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
abstract class PytorchJavaFamily implements Driver {
    private final String id;
    private final String call;

    PytorchJavaFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /** A driver's model over a loaded module and its signature; closing it destroys the module. */
    abstract static class Bound implements TensorModel {
        final Module module;
        final Signature signature;

        Bound(Module module, Signature signature) {
            this.module = module;
            this.signature = signature;
        }

        @Override
        public final Signature signature() {
            return signature;
        }

        @Override
        public final void close() {
            module.destroy();
        }
    }

    /** The driver's call over a loaded module whose outputs the signature describes (checked). */
    abstract TensorModel bind(Module module, int batch, Signature signature);

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return PytorchModels.ARTIFACT;
    }

    @Override
    public final TensorModel load(Path model, Options options) throws DataException {
        Signature signature = TorchScriptSignature.read(model);
        Module module = PytorchModels.load(model, options.threads, options.batch, signature);
        try {
            return bind(module, options.batch, signature);
        } catch (RuntimeException e) {
            module.destroy();
            throw e;
        }
    }

    @Override
    public final String runtimeVersion() {
        return PytorchModels.version();
    }

    @Override
    public final Map<String, Object> notes() {
        return PytorchModels.notes(call);
    }
}
