package dev.callbench.drivers;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.callbench.DataException;
import dev.callbench.OutputShape;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;

/** Opens {@code mlp.onnx} the same way for both ONNX Runtime drivers. */
final class OnnxRuntimeSessions {
    private OnnxRuntimeSessions() {}

    /**
     * A session with {@code threads} intra-op threads and no inter-op
     * parallelism (sequential execution), all graph optimisations on.
     */
    static OrtSession open(OrtEnvironment env, Path model, int threads)
            throws OrtException, DataException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            return env.createSession(model.toString(), options);
        }
    }

    /** The session's one input and one output, their names and sizes per sample. */
    static OnnxSignature signature(OrtSession session, Path model) throws OrtException, DataException {
        Map<String, NodeInfo> inputs = session.getInputInfo();
        Map<String, NodeInfo> outputs = session.getOutputInfo();
        return OnnxSignature.of(model, inputs.size(), outputs.size(), port(inputs), port(outputs));
    }

    /** The first of {@code nodes} as a signature's port (null when there is none). */
    private static OnnxSignature.Port port(Map<String, NodeInfo> nodes) {
        if (nodes.isEmpty()) {
            return null;
        }
        NodeInfo node = nodes.values().iterator().next();
        if (node.getInfo() instanceof TensorInfo tensor) {
            return new OnnxSignature.Port(node.getName(),
                    tensor.type == ai.onnxruntime.OnnxJavaType.FLOAT, tensor.getShape());
        }
        return new OnnxSignature.Port(node.getName(), false, new long[0]);
    }

    /** Runs one batch of zeros and checks the output's shape against the signature. */
    static void requireOutputShape(OrtEnvironment env, OrtSession session, Path model, int batch,
            OnnxSignature io) throws OrtException, DataException {
        FloatBuffer zeros = FloatBuffer.wrap(new float[io.features() * batch]);
        try (OnnxTensor x = OnnxTensor.createTensor(env, zeros, new long[] {batch, io.features()});
                OrtSession.Result result = session.run(Map.of(io.input(), x))) {
            long[] shape = ((OnnxTensor) result.get(0)).getInfo().getShape();
            OutputShape.require(model, shape, batch, io.outputWidth());
        }
    }

    /** Closes {@code session}; failing to free it is a bug, not a user error. */
    static void close(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("closing the ONNX Runtime session failed", e);
        }
    }

    static String version() {
        return OrtEnvironment.getEnvironment().getVersion();
    }
}
