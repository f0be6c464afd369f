package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Dtype;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.pytorch.DType;
import org.pytorch.IValue;
import org.pytorch.Tensor;

/**
 * The org.pytorch side of contract version 3's tensors, shared by both org.pytorch
 * drivers: which dtypes the API has (1.13.1 has no float16 or bool tensor), a
 * tensor over a direct buffer, the outputs of a forward and storing them.
 */
final class PytorchTensors {
    private PytorchTensors() {}

    /** org.pytorch's dtype for {@code dtype}, or a data error naming {@code model}. */
    static DType dtypeOf(Path model, dev.callbench.Tensor tensor) throws DataException {
        return switch (tensor.dtype()) {
            case FLOAT32 -> DType.FLOAT32;
            case FLOAT64 -> DType.FLOAT64;
            case INT64 -> DType.INT64;
            case INT32 -> DType.INT32;
            case INT8 -> DType.INT8;
            case UINT8 -> DType.UINT8;
            case FLOAT16, BOOL -> throw new DataException(model, "has " + tensor.describe()
                    + ", and org.pytorch 1.13.1 has no " + tensor.dtype().contractName() + " tensor");
        };
    }

    /**
     * A tensor of {@code shape} over {@code direct} (direct, native order: what
     * {@code Tensor.allocateByteBuffer} gives), which org.pytorch wraps without a copy.
     */
    static Tensor over(ByteBuffer direct, Dtype dtype, long[] shape) {
        return switch (dtype) {
            case FLOAT32 -> Tensor.fromBlob(direct.asFloatBuffer(), shape);
            case FLOAT64 -> Tensor.fromBlob(direct.asDoubleBuffer(), shape);
            case INT64 -> Tensor.fromBlob(direct.asLongBuffer(), shape);
            case INT32 -> Tensor.fromBlob(direct.asIntBuffer(), shape);
            case INT8 -> Tensor.fromBlob(direct, shape);
            case UINT8 -> Tensor.fromBlobUnsigned(direct, shape);
            case FLOAT16, BOOL -> throw new IllegalArgumentException(dtype + " (refused at load)");
        };
    }

    /** The tensors a forward returned: one tensor, or a tuple or list of them. */
    static Tensor[] outputs(IValue result) {
        if (result.isTensor()) {
            return new Tensor[] {result.toTensor()};
        }
        if (result.isTensorList()) {
            return result.toTensorList();
        }
        IValue[] elements = result.isTuple() ? result.toTuple() : result.toList();
        Tensor[] tensors = new Tensor[elements.length];
        for (int k = 0; k < elements.length; k++) {
            tensors[k] = elements[k].toTensor();
        }
        return tensors;
    }

    /** Stores every value of {@code y} into {@code into} (little-endian) from byte {@code at}. */
    static void store(Tensor y, ByteBuffer into, int at) {
        ByteBuffer le = into.order(ByteOrder.LITTLE_ENDIAN);
        switch (y.dtype()) {
            case FLOAT32 -> {
                float[] values = y.getDataAsFloatArray();
                for (int i = 0; i < values.length; i++) {
                    le.putFloat(at + 4 * i, values[i]);
                }
            }
            case FLOAT64 -> {
                double[] values = y.getDataAsDoubleArray();
                for (int i = 0; i < values.length; i++) {
                    le.putDouble(at + 8 * i, values[i]);
                }
            }
            case INT64 -> {
                long[] values = y.getDataAsLongArray();
                for (int i = 0; i < values.length; i++) {
                    le.putLong(at + 8 * i, values[i]);
                }
            }
            case INT32 -> {
                int[] values = y.getDataAsIntArray();
                for (int i = 0; i < values.length; i++) {
                    le.putInt(at + 4 * i, values[i]);
                }
            }
            case INT8 -> le.put(at, y.getDataAsByteArray());
            case UINT8 -> le.put(at, y.getDataAsUnsignedByteArray());
        }
    }
}
