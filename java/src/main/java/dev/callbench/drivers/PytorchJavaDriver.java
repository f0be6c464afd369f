package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/**
 * java-pytorch: the org.pytorch API called as the seed did, each call making
 * a tensor of every input with {@code Tensor.fromBlob(float[], shape)} (or the
 * array of its dtype; it copies into a fresh direct buffer), wrapping it with
 * {@code IValue.from}, calling {@code Module.forward} and reading each output
 * with {@code getDataAsFloatArray()} (or its dtype's). Runs on the project's
 * JNI peer (java/native).
 */
public final class PytorchJavaDriver extends PytorchJavaFamily {
    public PytorchJavaDriver() {
        super("java-pytorch", "Tensor.fromBlob(float[]) + IValue.from + forward each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new PytorchJavaDriver(), args);
    }

    @Override
    Bound bind(Module module, int batch, Signature signature) {
        return new Plain(module, batch, signature);
    }

    private static final class Plain extends Bound {
        private final int batch;
        private final ArrayInput[] inputs;
        private final IValue[] args;
        private final int[] outputBytes;

        Plain(Module module, int batch, Signature signature) {
            super(module, signature);
            this.batch = batch;
            List<dev.callbench.Tensor> specs = signature.inputs();
            this.inputs = new ArrayInput[specs.size()];
            for (int k = 0; k < inputs.length; k++) {
                inputs[k] = new ArrayInput(specs.get(k), batch);
            }
            this.args = new IValue[inputs.length];
            this.outputBytes = signature.outputs().stream().mapToInt(t -> t.sampleBytes()).toArray();
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) {
            for (int k = 0; k < inputs.length; k++) {
                args[k] = IValue.from(inputs[k].fromBlob(values[k], first));
            }
            Tensor[] y = PytorchTensors.outputs(module.forward(args));
            for (int k = 0; k < y.length; k++) {
                PytorchTensors.store(y[k], into[k], first * outputBytes[k]);
            }
        }
    }

    /**
     * One input's Java array of its dtype (what {@code fromBlob} needs: exactly
     * the tensor's size), refilled from the samples each call.
     */
    private static final class ArrayInput {
        private final Dtype dtype;
        private final long[] shape;
        private final int sampleBytes;
        private final float[] floats;
        private final double[] doubles;
        private final long[] longs;
        private final int[] ints;
        private final byte[] bytes;

        ArrayInput(dev.callbench.Tensor spec, int batch) {
            this.dtype = spec.dtype();
            this.shape = spec.batchShape(batch);
            this.sampleBytes = spec.sampleBytes();
            int n = batch * spec.sampleSize();
            this.floats = dtype == Dtype.FLOAT32 ? new float[n] : null;
            this.doubles = dtype == Dtype.FLOAT64 ? new double[n] : null;
            this.longs = dtype == Dtype.INT64 ? new long[n] : null;
            this.ints = dtype == Dtype.INT32 ? new int[n] : null;
            this.bytes = dtype == Dtype.INT8 || dtype == Dtype.UINT8 ? new byte[n] : null;
        }

        Tensor fromBlob(ByteBuffer samples, int first) {
            ByteBuffer le = samples.order(ByteOrder.LITTLE_ENDIAN);
            int at = first * sampleBytes;
            switch (dtype) {
                case FLOAT32 -> {
                    for (int i = 0; i < floats.length; i++) {
                        floats[i] = le.getFloat(at + 4 * i);
                    }
                    return Tensor.fromBlob(floats, shape);
                }
                case FLOAT64 -> {
                    for (int i = 0; i < doubles.length; i++) {
                        doubles[i] = le.getDouble(at + 8 * i);
                    }
                    return Tensor.fromBlob(doubles, shape);
                }
                case INT64 -> {
                    for (int i = 0; i < longs.length; i++) {
                        longs[i] = le.getLong(at + 8 * i);
                    }
                    return Tensor.fromBlob(longs, shape);
                }
                case INT32 -> {
                    for (int i = 0; i < ints.length; i++) {
                        ints[i] = le.getInt(at + 4 * i);
                    }
                    return Tensor.fromBlob(ints, shape);
                }
                case INT8 -> {
                    le.get(at, bytes);
                    return Tensor.fromBlob(bytes, shape);
                }
                case UINT8 -> {
                    le.get(at, bytes);
                    return Tensor.fromBlobUnsigned(bytes, shape);
                }
                default -> throw new IllegalStateException(dtype + " (refused at load)");
            }
        }
    }
}
