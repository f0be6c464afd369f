package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake runtime for the kit's tests, of our MLP's signature (x float32 [2]
 * to y float32 [1]): its model file must read "sum", and its call stores
 * y = x1 + x2 per sample. It records each call's first sample, can be told to
 * store nothing, and remembers being closed.
 */
final class SumDriver implements Driver {
    static final Signature SIGNATURE = new Signature(
            List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
            List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));

    final List<Integer> firsts = new ArrayList<>();
    boolean storeNothing;
    /** Thrown by every call when set: a runtime failing during a round. */
    RuntimeException failure;
    boolean closed;

    @Override
    public String id() {
        return "java-sum";
    }

    @Override
    public String artifact() {
        return "sum.model";
    }

    @Override
    public TensorModel load(Path model, Options options) throws Exception {
        String text = Files.readString(model).strip();
        if (!text.equals("sum")) {
            throw new IllegalArgumentException("bad magic '" + text + "'\nsecond line");
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
                if (failure != null) {
                    throw failure;
                }
                if (storeNothing) {
                    return;
                }
                ByteBuffer x = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer y = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                for (int i = first; i < first + batch; i++) {
                    y.putFloat(4 * i, x.getFloat(8 * i) + x.getFloat(8 * i + 4));
                }
            }

            @Override
            public String runtimeVersion() {
                return "1.0";
            }

            @Override
            public Map<String, Object> notes() {
                return Map.of("call", "x1 + x2");
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
