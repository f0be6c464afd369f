package dev.callbench.drivers;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.Batchifier;
import ai.djl.translate.TranslateException;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * java-djl: Deep Java Library with its PyTorch engine, used the way DJL
 * documents: the Model API loads the TorchScript, and each call goes
 * through a {@code Predictor} and a {@code Translator} (a fresh NDManager per
 * call, each input created from its samples' bytes, each output read back as
 * a ByteBuffer).
 */
public final class DjlDriver extends DjlFamily {
    public DjlDriver() {
        super("java-djl", "Predictor.predict(ByteBuffer[]) through a Translator, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new DjlDriver(), args);
    }

    @Override
    Bound bind(ai.djl.Model loaded, int batch, Signature signature) {
        return new Plain(loaded, batch, signature);
    }

    /** Each input's B samples in, each output's bytes out: the model's forward as Java buffers. */
    static final class BytesTranslator implements Translator<ByteBuffer[], ByteBuffer[]> {
        private final Shape[] shapes;
        private final DataType[] types;

        BytesTranslator(List<Tensor> inputs, int batch) {
            this.shapes = inputs.stream().map(t -> DjlModels.shape(t, batch)).toArray(Shape[]::new);
            this.types = inputs.stream().map(t -> DjlModels.dataType(t.dtype())).toArray(DataType[]::new);
        }

        @Override
        public NDList processInput(TranslatorContext ctx, ByteBuffer[] input) {
            NDList list = new NDList(input.length);
            for (int k = 0; k < input.length; k++) {
                list.add(ctx.getNDManager().create(input[k], shapes[k], types[k]));
            }
            return list;
        }

        @Override
        public ByteBuffer[] processOutput(TranslatorContext ctx, NDList list) {
            ByteBuffer[] out = new ByteBuffer[list.size()];
            for (int k = 0; k < out.length; k++) {
                out[k] = list.get(k).toByteBuffer();
            }
            return out;
        }

        @Override
        public Batchifier getBatchifier() {
            // The inputs already carry their batch dimension.
            return null;
        }
    }

    private static final class Plain extends Bound {
        private final Predictor<ByteBuffer[], ByteBuffer[]> predictor;
        private final int batch;
        private final int[] inputBytes;
        private final int[] outputBytes;
        private final ByteBuffer[] slices;

        Plain(ai.djl.Model model, int batch, Signature signature) {
            super(model, signature);
            this.predictor = model.newPredictor(new BytesTranslator(signature.inputs(), batch));
            this.batch = batch;
            this.inputBytes = signature.inputs().stream().mapToInt(Tensor::sampleBytes).toArray();
            this.outputBytes = signature.outputs().stream().mapToInt(Tensor::sampleBytes).toArray();
            this.slices = new ByteBuffer[inputBytes.length];
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) throws TranslateException {
            for (int k = 0; k < slices.length; k++) {
                slices[k] = values[k].slice(first * inputBytes[k], batch * inputBytes[k]);
            }
            ByteBuffer[] y = predictor.predict(slices);
            for (int k = 0; k < y.length; k++) {
                into[k].put(first * outputBytes[k], y[k], 0, batch * outputBytes[k]);
            }
        }

        @Override
        public void close() {
            predictor.close();
            super.close();
        }
    }
}
