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
    static final String INPUT = "x";
    static final String OUTPUT = "y";

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
            OrtSession session = env.createSession(model.toString(), options);
            try {
                requireFloatTensor(model, "input", session.getInputInfo(), INPUT);
                requireFloatTensor(model, "output", session.getOutputInfo(), OUTPUT);
            } catch (DataException | OrtException e) {
                session.close();
                throw e;
            }
            return session;
        }
    }

    /** Runs one batch of zeros and checks the output is {@code [batch, 1]}. */
    static void requireOutputShape(OrtEnvironment env, OrtSession session, Path model, int batch)
            throws OrtException, DataException {
        FloatBuffer zeros = FloatBuffer.wrap(new float[2 * batch]);
        try (OnnxTensor x = OnnxTensor.createTensor(env, zeros, new long[] {batch, 2});
                OrtSession.Result result = session.run(Map.of(INPUT, x))) {
            OutputShape.require(model, ((OnnxTensor) result.get(0)).getInfo().getShape(), batch);
        }
    }

    private static void requireFloatTensor(Path model, String role, Map<String, NodeInfo> nodes,
            String name) throws DataException {
        NodeInfo node = nodes.get(name);
        if (node == null || !(node.getInfo() instanceof TensorInfo tensor)
                || tensor.type != ai.onnxruntime.OnnxJavaType.FLOAT) {
            throw new DataException(model, "has no float32 " + role + " tensor '" + name
                    + "' (it has " + nodes.keySet() + ")");
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
