package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import java.nio.FloatBuffer;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/**
 * java-pytorch-reuse: the fastest way the org.pytorch API allows. A tensor
 * over a direct buffer ({@code Tensor.allocateFloatBuffer}) is wrapped by
 * the native side without a copy, so one input tensor and its IValue are made
 * once and the buffer is rewritten each call. The output still arrives as a
 * new Tensor (the API has no output binding) and is read with
 * {@code getDataAsFloatArray()}.
 */
public final class PytorchJavaReuseDriver extends PytorchJavaFamily {
    public PytorchJavaReuseDriver() {
        super("java-pytorch-reuse", "input tensor over a reused direct buffer, forward each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new PytorchJavaReuseDriver(), args);
    }

    @Override
    Model bind(Module module, int batch) {
        return new Reuse(module, batch);
    }

    private static final class Reuse implements Model {
        private final Module module;
        private final int batch;
        private final FloatBuffer in;
        private final IValue input;

        Reuse(Module module, int batch) {
            this.module = module;
            this.batch = batch;
            this.in = Tensor.allocateFloatBuffer(2 * batch);
            this.input = IValue.from(Tensor.fromBlob(in, new long[] {batch, 2}));
        }

        @Override
        public void call(float[] inputs, int first, float[] outputs) {
            in.put(0, inputs, 2 * first, 2 * batch);
            float[] y = module.forward(input).toTensor().getDataAsFloatArray();
            System.arraycopy(y, 0, outputs, first, batch);
        }

        @Override
        public void close() {
            module.destroy();
        }
    }
}
