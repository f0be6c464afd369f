package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake runtime of several tensors for the kit's tests: its model file must
 * read "sum", its input 'a' is int64 [2], and its call stores the sum 's'
 * (int64 []) and the first value as a float 'f' (float32 []). It records each
 * call's first sample and can be told to store nothing.
 */
final class SumTensorDriver implements Driver {
    static final Signature SIGNATURE = new Signature(
            List.of(new Tensor("a", Dtype.INT64, new long[] {2})),
            List.of(new Tensor("s", Dtype.INT64, new long[] {}),
                    new Tensor("f", Dtype.FLOAT32, new long[] {})));

    final List<Integer> firsts = new ArrayList<>();
    boolean storeNothing;
    boolean closed;

    @Override
    public String id() {
        return "java-sum-tensors";
    }

    @Override
    public String artifact() {
        return "sum.model";
    }

    @Override
    public TensorModel load(Path model, Options options) throws Exception {
        if (!Files.readString(model).strip().equals("sum")) {
            throw new IllegalArgumentException("bad magic");
        }
        return model(options.batch);
    }

    /** The model itself, for tests that drive {@link Rounds} without a file. */
    TensorModel model(int batch) {
        return new TensorModel() {
            @Override
            public Signature signature() {
                return SIGNATURE;
            }

            @Override
            public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) {
                firsts.add(first);
                if (storeNothing) {
                    return;
                }
                ByteBuffer a = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer s = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer f = outputs[1].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                for (int i = first; i < first + batch; i++) {
                    long a0 = a.getLong(16 * i);
                    s.putLong(8 * i, a0 + a.getLong(16 * i + 8));
                    f.putFloat(4 * i, a0);
                }
            }

            @Override
            public String runtimeVersion() {
                return "1.0";
            }

            @Override
            public Map<String, Object> notes() {
                return Map.of("call", "a0 + a1");
            }

            @Override
            public void close() {
                closed = true;
            }
        };
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
