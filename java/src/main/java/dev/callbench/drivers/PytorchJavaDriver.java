package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/**
 * java-pytorch: the org.pytorch API called as the seed did, each call making
 * a tensor with {@code Tensor.fromBlob(float[], shape)} (which copies into a
 * fresh direct buffer), wrapping it with {@code IValue.from}, calling
 * {@code Module.forward} and reading the result with
 * {@code getDataAsFloatArray()}. Runs on the project's JNI peer (java/native).
 */
public final class PytorchJavaDriver extends PytorchJavaFamily {
    public PytorchJavaDriver() {
        super("java-pytorch", "Tensor.fromBlob(float[]) + IValue.from + forward each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new PytorchJavaDriver(), args);
    }

    @Override
    Model bind(Module module, int batch) {
        return new Plain(module, batch);
    }

    private static final class Plain implements Model {
        private final Module module;
        private final int batch;
        private final long[] shape;
        private final float[] slice;

        Plain(Module module, int batch) {
            this.module = module;
            this.batch = batch;
            this.shape = new long[] {batch, 2};
            this.slice = new float[2 * batch];
        }

        @Override
        public void call(float[] inputs, int first, float[] outputs) {
            // fromBlob(float[]) needs an array of exactly the tensor's size.
            System.arraycopy(inputs, 2 * first, slice, 0, 2 * batch);
            Tensor x = Tensor.fromBlob(slice, shape);
            float[] y = module.forward(IValue.from(x)).toTensor().getDataAsFloatArray();
            System.arraycopy(y, 0, outputs, first, batch);
        }

        @Override
        public void close() {
            module.destroy();
        }
    }
}
