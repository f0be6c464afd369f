package dev.callbench.drivers;

import ai.djl.MalformedModelException;
import ai.djl.translate.TranslateException;
import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.Model;
import dev.callbench.Options;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What both DJL drivers share: the engine's configuration, the TorchScript
 * artifact (loaded and checked once, closed if the driver's call cannot be set
 * up), the version and the notes. A driver gives its id, what its call does,
 * and the call.
 */
abstract class DjlFamily implements Driver {
    private final String id;
    private final String call;

    DjlFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /**
     * The driver's call over a loaded model whose output is {@code [batch, 1]};
     * closing it closes the model.
     */
    abstract Model bind(ai.djl.Model loaded, int batch);

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return "mlp_torchscript.pt";
    }

    @Override
    public final Model load(Path model, Options options)
            throws MalformedModelException, IOException, TranslateException, DataException {
        DjlEngine.configure(options);
        ai.djl.Model loaded = DjlModels.load(model);
        try {
            DjlModels.requireOutputShape(loaded, model, options.batch);
            return bind(loaded, options.batch);
        } catch (TranslateException | DataException | RuntimeException e) {
            loaded.close();
            throw e;
        }
    }

    @Override
    public final String runtimeVersion() {
        return DjlEngine.version();
    }

    @Override
    public final Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", call);
        notes.putAll(DjlEngine.notes());
        return notes;
    }
}
