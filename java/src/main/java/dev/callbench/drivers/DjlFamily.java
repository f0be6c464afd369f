package dev.callbench.drivers;

import ai.djl.MalformedModelException;
import ai.djl.translate.TranslateException;
import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What both DJL drivers share: the engine's configuration, the TorchScript
 * artifact (loaded and checked once, closed if the driver's call cannot be set
 * up), the version and the notes. A driver gives its id, what its call does,
 * and the call on every input and output the file's signature names
 * (contract version 3).
 */
abstract class DjlFamily implements Driver {
    private final String id;
    private final String call;

    DjlFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /** A driver's model over a loaded DJL model and its signature; closing it closes the model. */
    abstract static class Bound implements TensorModel {
        final ai.djl.Model model;
        final Signature signature;

        Bound(ai.djl.Model model, Signature signature) {
            this.model = model;
            this.signature = signature;
        }

        @Override
        public final Signature signature() {
            return signature;
        }

        @Override
        public void close() {
            model.close();
        }
    }

    /** The driver's call over a loaded model whose outputs the signature describes (checked). */
    abstract TensorModel bind(ai.djl.Model loaded, int batch, Signature signature);

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return PytorchModels.ARTIFACT;
    }

    @Override
    public final TensorModel load(Path model, Options options)
            throws MalformedModelException, IOException, TranslateException, DataException {
        Signature signature = TorchScriptSignature.read(model);
        DjlEngine.configure(options);
        ai.djl.Model loaded = DjlModels.load(model);
        try {
            DjlModels.checkOutputs(loaded, model, options.batch, signature);
            return bind(loaded, options.batch, signature);
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
