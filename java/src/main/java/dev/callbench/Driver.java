package dev.callbench;

import java.nio.file.Path;
import java.util.Map;

/** What a driver class tells the shared runner: who it is and how to load its model. */
public interface Driver {
    /** The stable catalogue id, e.g. {@code java-onnxruntime}. */
    String id();

    /** The runtime being measured, e.g. {@code onnxruntime}. */
    String runtime();

    /** The artifact file name under {@code --models}, e.g. {@code mlp.onnx}. */
    String artifact();

    /**
     * Loads {@code model} for calls of {@code options.batch} samples using
     * {@code options.threads} intra-op threads. Any exception becomes a
     * one-line error naming {@code model}.
     */
    Inference load(Path model, Options options) throws Exception;

    /** The runtime's version, asked after {@link #load} (some runtimes only know it then). */
    String runtimeVersion();

    /** Extra keys for the record (kept by the harness), e.g. how the runtime was configured. */
    default Map<String, Object> notes() {
        return Map.of();
    }
}
