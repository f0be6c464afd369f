package dev.callbench.drivers;

import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import ai.djl.translate.TranslateException;
import dev.callbench.CallbenchException;
import dev.callbench.DataException;
import dev.callbench.DriverMain;
import dev.callbench.Inference;
import dev.callbench.Options;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;

/**
 * java-djl-reuse: DJL without the per-call Predictor machinery. The model's
 * {@code Block} is called directly ({@code Block.forward}) on one input
 * NDArray created once and refilled each call from a direct buffer
 * ({@code NDArray.set}), so no Predictor context, sub-manager or Java input
 * array is made per call. Each call's output is read into the outputs array
 * and freed at once. Measured: no faster than java-djl, since LibTorch's
 * forward dominates the call (java/README.md).
 */
public final class DjlReuseDriver extends DjlFamily {
    @Override
    public String id() {
        return "java-djl-reuse";
    }

    @Override
    public Inference load(Path model, Options options)
            throws MalformedModelException, IOException, TranslateException,
            DataException {
        DjlEngine.configure(options);
        Model loaded = DjlModels.load(model);
        try {
            DjlModels.requireOutputShape(loaded, model, options.batch);
            return new Reuse(loaded, options.batch);
        } catch (TranslateException | DataException | RuntimeException e) {
            loaded.close();
            throw e;
        }
    }

    private static final class Reuse implements Inference {
        private final Model model;
        private final int batch;
        private final Block block;
        private final ParameterStore parameters;
        private final NDManager manager;
        private final ByteBuffer bytes;
        private final FloatBuffer floats;
        private final NDArray input;
        private final NDList inputs;

        Reuse(Model model, int batch) {
            this.model = model;
            this.batch = batch;
            this.block = model.getBlock();
            this.manager = model.getNDManager().newSubManager();
            this.parameters = new ParameterStore(manager, false);
            // A direct, native-order buffer is handed to LibTorch without another copy.
            this.bytes = ByteBuffer.allocateDirect(4 * 2 * batch).order(ByteOrder.nativeOrder());
            this.floats = bytes.asFloatBuffer();
            this.input = manager.zeros(new Shape(batch, 2));
            this.inputs = new NDList(input);
        }

        @Override
        public void call(float[] values, int first, float[] outputs) {
            floats.put(0, values, 2 * first, 2 * batch);
            input.set(bytes);
            NDList out = block.forward(parameters, inputs, false);
            NDArray y = out.singletonOrThrow();
            if (batch == 1) {
                outputs[first] = y.getFloat();
            } else {
                System.arraycopy(y.toFloatArray(), 0, outputs, first, batch);
            }
            y.close();
        }

        @Override
        public void close() {
            manager.close();
            model.close();
        }
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new DjlReuseDriver(), args);
    }
}
