package dev.callbench.drivers;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import dev.callbench.DataException;
import dev.callbench.OutputShape;
import java.io.IOException;
import java.nio.file.Path;

/** Loading and checking the TorchScript model, shared by both DJL drivers. */
final class DjlModels {
    private DjlModels() {}

    /**
     * Loads {@code model} (TorchScript) on the PyTorch engine with DJL's Model
     * API. DJL's PyTorch model loads {@code <dir>/<name>.pt}, so it is given
     * the folder and the model name. Unlike {@code Criteria.loadModel}, this
     * closes the model when loading fails, so a corrupt file yields one error
     * line and no "model was not closed" warning from DJL's finalizer.
     */
    static Model load(Path model) throws IOException, MalformedModelException {
        String file = model.getFileName().toString();
        String name = file.endsWith(".pt") ? file.substring(0, file.length() - 3) : file;
        Model loaded = Model.newInstance(name, Device.cpu(), DjlEngine.NAME);
        try {
            loaded.load(model.toAbsolutePath().getParent(), name);
            return loaded;
        } catch (IOException | MalformedModelException | RuntimeException e) {
            loaded.close();
            throw e;
        }
    }

    /** Runs one batch of zeros and checks the output is {@code [batch, 1]}. */
    static void requireOutputShape(Model loaded, Path model, int batch)
            throws TranslateException, DataException {
        try (NDManager manager = loaded.getNDManager().newSubManager();
                Predictor<NDList, NDList> probe = loaded.newPredictor(new NoopTranslator(null))) {
            NDList out = probe.predict(new NDList(manager.zeros(new Shape(batch, 2))));
            if (out.size() != 1) {
                throw new DataException(model, "gives " + out.size() + " outputs, expected 1");
            }
            OutputShape.require(model, out.singletonOrThrow().getShape().getShape(), batch);
            out.close();
        }
    }
}
