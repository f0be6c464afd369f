package dev.callbench.drivers;

import dev.callbench.Driver;

/** What both ONNX Runtime drivers report: runtime, artifact and version. */
abstract class OnnxRuntimeFamily implements Driver {
    @Override
    public final String runtime() {
        return "onnxruntime";
    }

    @Override
    public final String artifact() {
        return "mlp.onnx";
    }

    @Override
    public final String runtimeVersion() {
        return OnnxRuntimeSessions.version();
    }
}
