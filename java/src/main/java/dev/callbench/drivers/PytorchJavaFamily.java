package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.Model;
import dev.callbench.Options;
import java.nio.file.Path;
import java.util.Map;
import org.pytorch.Module;

/**
 * What both org.pytorch drivers share: the TorchScript artifact (loaded and
 * checked once, destroyed if the driver's call cannot be set up), the version
 * and the notes. A driver gives its id, what its call does, and the call.
 */
abstract class PytorchJavaFamily implements Driver {
    private final String id;
    private final String call;

    PytorchJavaFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /**
     * The driver's call over a loaded module whose output is {@code [batch, 1]};
     * closing it destroys the module.
     */
    abstract Model bind(Module module, int batch);

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return PytorchModels.ARTIFACT;
    }

    @Override
    public final Model load(Path model, Options options) throws DataException {
        Module module = PytorchModels.load(model, options.threads, options.batch);
        try {
            return bind(module, options.batch);
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
