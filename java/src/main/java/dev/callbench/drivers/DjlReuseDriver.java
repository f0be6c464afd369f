package dev.callbench.drivers;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

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
    public DjlReuseDriver() {
        super("java-djl-reuse", "Block.forward on one NDArray refilled by NDArray.set, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new DjlReuseDriver(), args);
    }

    @Override
    Model bind(ai.djl.Model loaded, int batch) {
        return new Reuse(loaded, batch);
    }

    private static final class Reuse implements Model {
        private final ai.djl.Model model;
        private final int batch;
        private final Block block;
        private final ParameterStore parameters;
        private final NDManager manager;
        private final ByteBuffer bytes;
        private final FloatBuffer floats;
        private final NDArray input;
        private final NDList inputs;

        Reuse(ai.djl.Model model, int batch) {
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
}
