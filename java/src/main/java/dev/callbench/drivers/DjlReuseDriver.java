package dev.callbench.drivers;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * java-djl-reuse: DJL without the per-call Predictor machinery. The model's
 * {@code Block} is called directly ({@code Block.forward}) on input NDArrays
 * created once and refilled each call from a direct buffer
 * ({@code NDArray.set}), so no Predictor context, sub-manager or Java input
 * array is made per call. Each call's outputs are read as ByteBuffers and
 * freed at once. Measured: no faster than java-djl, since LibTorch's forward
 * dominates the call (java/README.md).
 */
public final class DjlReuseDriver extends DjlFamily {
    public DjlReuseDriver() {
        super("java-djl-reuse", "Block.forward on NDArrays refilled by NDArray.set, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new DjlReuseDriver(), args);
    }

    @Override
    Bound bind(ai.djl.Model loaded, int batch, Signature signature) {
        return new Reuse(loaded, batch, signature);
    }

    private static final class Reuse extends Bound {
        private final int batch;
        private final Block block;
        private final ParameterStore parameters;
        private final NDManager manager;
        private final ByteBuffer[] staged;
        private final NDArray[] arrays;
        private final NDList inputs;
        private final int[] inputBytes;
        private final int[] outputBytes;

        Reuse(ai.djl.Model model, int batch, Signature signature) {
            super(model, signature);
            this.batch = batch;
            this.block = model.getBlock();
            this.manager = model.getNDManager().newSubManager();
            this.parameters = new ParameterStore(manager, false);
            List<Tensor> specs = signature.inputs();
            this.inputBytes = specs.stream().mapToInt(Tensor::sampleBytes).toArray();
            this.outputBytes = signature.outputs().stream().mapToInt(Tensor::sampleBytes).toArray();
            this.staged = new ByteBuffer[specs.size()];
            this.arrays = new NDArray[specs.size()];
            for (int k = 0; k < arrays.length; k++) {
                // A direct, native-order buffer is handed to LibTorch without another copy.
                staged[k] = ByteBuffer.allocateDirect(batch * inputBytes[k]).order(ByteOrder.nativeOrder());
                arrays[k] = manager.zeros(DjlModels.shape(specs.get(k), batch),
                        DjlModels.dataType(specs.get(k).dtype()));
            }
            this.inputs = new NDList(arrays);
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) {
            for (int k = 0; k < arrays.length; k++) {
                staged[k].put(0, values[k], first * inputBytes[k], batch * inputBytes[k]);
                arrays[k].set(staged[k]);
            }
            NDList out = block.forward(parameters, inputs, false);
            for (int k = 0; k < outputBytes.length; k++) {
                into[k].put(first * outputBytes[k], out.get(k).toByteBuffer(), 0, batch * outputBytes[k]);
            }
            out.close();
        }

        @Override
        public void close() {
            manager.close();
            super.close();
        }
    }
}
