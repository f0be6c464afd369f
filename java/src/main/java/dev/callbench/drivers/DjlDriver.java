package dev.callbench.drivers;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.Batchifier;
import ai.djl.translate.TranslateException;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import java.util.Arrays;

/**
 * java-djl: Deep Java Library with its PyTorch engine, used the way DJL
 * documents: the Model API loads the TorchScript, and each call goes
 * through a {@code Predictor} and a {@code Translator}
 * (a fresh NDManager per call, input created from a Java array, output read
 * back into one).
 */
public final class DjlDriver extends DjlFamily {
    public DjlDriver() {
        super("java-djl", "Predictor.predict(float[]) through a Translator, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new DjlDriver(), args);
    }

    @Override
    Model bind(ai.djl.Model loaded, int batch) {
        return new Plain(loaded, batch);
    }

    /** float[2B] in, float[B] out: the model's [B, 2] -> [B, 1] forward as Java arrays. */
    static final class MlpTranslator implements Translator<float[], float[]> {
        private final Shape shape;

        MlpTranslator(int batch) {
            this.shape = new Shape(batch, 2);
        }

        @Override
        public NDList processInput(TranslatorContext ctx, float[] input) {
            return new NDList(ctx.getNDManager().create(input, shape));
        }

        @Override
        public float[] processOutput(TranslatorContext ctx, NDList list) {
            NDArray y = list.singletonOrThrow();
            return y.toFloatArray();
        }

        @Override
        public Batchifier getBatchifier() {
            // The input already carries its batch dimension.
            return null;
        }
    }

    private static final class Plain implements Model {
        private final ai.djl.Model model;
        private final Predictor<float[], float[]> predictor;
        private final int batch;

        Plain(ai.djl.Model model, int batch) {
            this.model = model;
            this.predictor = model.newPredictor(new MlpTranslator(batch));
            this.batch = batch;
        }

        @Override
        public void call(float[] inputs, int first, float[] outputs) throws TranslateException {
            float[] x = Arrays.copyOfRange(inputs, 2 * first, 2 * (first + batch));
            float[] y = predictor.predict(x);
            System.arraycopy(y, 0, outputs, first, batch);
        }

        @Override
        public void close() {
            predictor.close();
            model.close();
        }
    }
}
