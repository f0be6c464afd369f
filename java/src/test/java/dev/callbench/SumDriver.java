package dev.callbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake runtime for the kit's tests: its model file must read "sum", and its
 * call stores y = x1 + x2 per sample. It records each call's first sample,
 * can be told to store nothing, and remembers being closed.
 */
final class SumDriver implements Driver {
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
    public String runtimeVersion() {
        return "1.0";
    }

    @Override
    public Map<String, Object> notes() {
        return Map.of("call", "x1 + x2");
    }

    @Override
    public Model load(Path model, Options options) throws Exception {
        String text = Files.readString(model).strip();
        if (!text.equals("sum")) {
            throw new IllegalArgumentException("bad magic '" + text + "'\nsecond line");
        }
        return model(options.batch);
    }

    /** The model itself, for tests that drive {@link Rounds} without a file. */
    Model model(int batch) {
        return new Model() {
            @Override
            public void call(float[] inputs, int first, float[] outputs) {
                firsts.add(first);
                if (failure != null) {
                    throw failure;
                }
                if (storeNothing) {
                    return;
                }
                for (int i = first; i < first + batch; i++) {
                    outputs[i] = inputs[2 * i] + inputs[2 * i + 1];
                }
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
