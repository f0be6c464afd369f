package dev.callbench.drivers;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import dev.callbench.DataException;
import dev.callbench.OutputShape;
import java.nio.file.Path;

/** Loading and checking the TorchScript model, shared by both DJL drivers. */
final class DjlModels {
    private DjlModels() {}

    /**
     * Criteria for {@code model} on the PyTorch engine. DJL's PyTorch model
     * loads {@code <dir>/<name>.pt}; naming the folder and the model (rather
     * than the file) is the form its repository expects.
     */
    static Criteria.Builder<?, ?> criteria(Path model) {
        String file = model.getFileName().toString();
        String name = file.endsWith(".pt") ? file.substring(0, file.length() - 3) : file;
        Path dir = model.toAbsolutePath().getParent();
        return Criteria.builder().optModelPath(dir).optModelName(name).optEngine(DjlEngine.NAME);
    }

    /** Runs one batch of zeros and checks the output is {@code [batch, 1]}. */
    static void requireOutputShape(ZooModel<?, ?> zoo, Path model, int batch)
            throws TranslateException, DataException {
        try (NDManager manager = zoo.getNDManager().newSubManager();
                Predictor<NDList, NDList> probe = zoo.newPredictor(new NoopTranslator(null))) {
            NDList out = probe.predict(new NDList(manager.zeros(new Shape(batch, 2))));
            if (out.size() != 1) {
                throw new DataException(model, "gives " + out.size() + " outputs, expected 1");
            }
            OutputShape.require(model, out.singletonOrThrow().getShape().getShape(), batch);
            out.close();
        }
    }
}
