package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A fake runtime of our MLP's signature (x float32 [2] to y float32 [1]): its
 * call stores y = x1 + x2 per sample.
 */
final class SumDriver extends FakeDriver {
    static final Signature SIGNATURE = new Signature(
            List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
            List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));

    SumDriver() {
        super("java-sum", "x1 + x2");
    }

    @Override
    Signature signature() {
        return SIGNATURE;
    }

    @Override
    void compute(ByteBuffer[] inputs, int first, int batch, ByteBuffer[] outputs) {
        ByteBuffer x = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer y = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = first; i < first + batch; i++) {
            y.putFloat(4 * i, x.getFloat(8 * i) + x.getFloat(8 * i + 4));
        }
    }
}
