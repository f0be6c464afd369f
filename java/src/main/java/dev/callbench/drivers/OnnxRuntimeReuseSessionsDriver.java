package dev.callbench.drivers;

import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;

/**
 * java-onnxruntime-reuse-sessions: java-onnxruntime-reuse with an OrtSession of its own in
 * each caller (contract 4, per caller), the same call bound over it: the other holding, so
 * the two differ in the holding alone. At one caller it is java-onnxruntime-reuse itself,
 * so it runs at N &gt; 1 callers only (the registry's callers_only).
 */
public final class OnnxRuntimeReuseSessionsDriver extends OnnxRuntimeReuseDriver {
    public OnnxRuntimeReuseSessionsDriver() {
        super("java-onnxruntime-reuse-sessions", CALL + ", a session per caller");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeReuseSessionsDriver(), args);
    }

    @Override
    boolean sessionPerCaller() {
        return true;
    }
}
