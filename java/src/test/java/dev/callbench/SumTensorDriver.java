package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A fake runtime of several tensors: its input 'a' is int64 [2], and its call
 * stores the sum 's' (int64 []) and the first value as a float 'f' (float32 []).
 */
final class SumTensorDriver extends FakeDriver {
    static final Signature SIGNATURE = new Signature(
            List.of(new Tensor("a", Dtype.INT64, new long[] {2})),
            List.of(new Tensor("s", Dtype.INT64, new long[] {}),
                    new Tensor("f", Dtype.FLOAT32, new long[] {})));

    SumTensorDriver() {
        super("java-sum-tensors", "a0 + a1");
    }

    @Override
    Signature signature() {
        return SIGNATURE;
    }

    @Override
    void compute(ByteBuffer[] inputs, int first, int batch, ByteBuffer[] outputs) {
        ByteBuffer a = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer s = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer f = outputs[1].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = first; i < first + batch; i++) {
            long a0 = a.getLong(16 * i);
            s.putLong(8 * i, a0 + a.getLong(16 * i + 8));
            f.putFloat(4 * i, a0);
        }
    }

    /** {@code count} samples a = (i, 10i) for i = 0..count-1, as inputs.i64's bytes. */
    static byte[] samples(int count) {
        ByteBuffer bytes = ByteBuffer.allocate(16 * count).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            bytes.putLong(i).putLong(10L * i);
        }
        return bytes.array();
    }
}
