package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DataException;
import dev.callbench.DriverMain;
import dev.callbench.Inference;
import dev.callbench.Options;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;
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
    @Override
    public String id() {
        return "java-pytorch-reuse";
    }

    @Override
    public Map<String, Object> notes() {
        return PytorchModels.notes("input tensor over a reused direct buffer, forward each call");
    }

    @Override
    public Inference load(Path model, Options options) throws DataException {
        return new Reuse(PytorchModels.load(model, options.threads, options.batch), options.batch);
    }

    private static final class Reuse implements Inference {
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

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new PytorchJavaReuseDriver(), args);
    }
}
