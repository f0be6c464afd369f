package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.util.List;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/**
 * java-pytorch-reuse: the fastest way the org.pytorch API allows. A tensor
 * over a direct buffer ({@code Tensor.allocateByteBuffer}) is wrapped by the
 * native side without a copy, so each input's tensor and IValue are made once
 * and its buffer is rewritten each call. The outputs still arrive as new
 * Tensors (the API has no output binding) and are read with
 * {@code getDataAsFloatArray()} (or their dtype's).
 */
public final class PytorchJavaReuseDriver extends PytorchJavaFamily {
    public PytorchJavaReuseDriver() {
        super("java-pytorch-reuse", "input tensor over a reused direct buffer, forward each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new PytorchJavaReuseDriver(), args);
    }

    @Override
    Bound bind(Module module, int batch, Signature signature) {
        return new Reuse(module, batch, signature);
    }

    private static final class Reuse extends Bound {
        private final ByteBuffer[] buffers;
        private final int[] inputBytes;
        private final IValue[] args;
        private final int[] outputBytes;
        private final int batch;

        Reuse(Module module, int batch, Signature signature) {
            super(module, signature);
            this.batch = batch;
            List<dev.callbench.Tensor> inputs = signature.inputs();
            this.buffers = new ByteBuffer[inputs.size()];
            this.inputBytes = new int[inputs.size()];
            this.args = new IValue[inputs.size()];
            for (int k = 0; k < args.length; k++) {
                dev.callbench.Tensor input = inputs.get(k);
                inputBytes[k] = input.sampleBytes();
                buffers[k] = Tensor.allocateByteBuffer(batch * inputBytes[k]);
                args[k] = IValue.from(PytorchTensors.over(buffers[k], input.dtype(), input.batchShape(batch)));
            }
            this.outputBytes = signature.outputs().stream().mapToInt(t -> t.sampleBytes()).toArray();
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) {
            for (int k = 0; k < args.length; k++) {
                buffers[k].put(0, values[k], first * inputBytes[k], batch * inputBytes[k]);
            }
            Tensor[] y = PytorchTensors.outputs(module.forward(args));
            for (int k = 0; k < y.length; k++) {
                PytorchTensors.store(y[k], into[k], first * outputBytes[k]);
            }
        }
    }
}
