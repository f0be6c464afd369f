package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the kit's fake runtimes share: a model file that must read "sum"; a
 * model that records each call's first sample, can be told to store nothing
 * or to fail, and remembers being closed. A fake says its signature and what
 * a call stores.
 */
abstract class FakeDriver implements Driver {
    final List<Integer> firsts = new ArrayList<>();
    boolean storeNothing;
    /** Thrown by every call when set: a runtime failing during a round. */
    RuntimeException failure;
    boolean closed;

    private final String id;
    private final String callWords;

    FakeDriver(String id, String callWords) {
        this.id = id;
        this.callWords = callWords;
    }

    abstract Signature signature();

    /** Stores the outputs of samples {@code [first, first + batch)}. */
    abstract void compute(ByteBuffer[] inputs, int first, int batch, ByteBuffer[] outputs);

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return "sum.model";
    }

    @Override
    public final TensorModel load(Path model, Options options) throws Exception {
        String text = Files.readString(model).strip();
        if (!text.equals("sum")) {
            throw new IllegalArgumentException("bad magic '" + text + "'\nsecond line");
        }
        return model(options.batch);
    }

    /** The model itself, for tests that drive {@link Rounds} without a file. */
    final TensorModel model(int batch) {
        return new TensorModel() {
            @Override
            public Signature signature() {
                return FakeDriver.this.signature();
            }

            @Override
            public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) {
                firsts.add(first);
                if (failure != null) {
                    throw failure;
                }
                if (!storeNothing) {
                    compute(inputs, first, batch, outputs);
                }
            }

            @Override
            public String runtimeVersion() {
                return "1.0";
            }

            @Override
            public Map<String, Object> notes() {
                return Map.of("call", callWords);
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
