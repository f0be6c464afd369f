package dev.callbench.drivers;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.callbench.DataException;
import dev.callbench.Inputs;
import dev.callbench.OutputShape;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/** Opens {@code mlp.onnx} the same way for both ONNX Runtime drivers. */
final class OnnxRuntimeSessions {
    private OnnxRuntimeSessions() {}

    /**
     * The model's one float input {@code [batch, F]} and one float output
     * {@code [batch, ...]}, as the session reads them (ours: x [batch, 2] and
     * y [batch, 1]; a user's model, --onnx, its own).
     */
    record Signature(String input, String output, int features, long[] outputShape) {
        /** Floats per output sample. */
        int outputWidth() {
            long width = 1;
            for (long d : outputShape) {
                width *= d;
            }
            return (int) width;
        }

        /** {@code [batch, ...outputShape]}. */
        long[] outputShape(int batch) {
            long[] shape = new long[outputShape.length + 1];
            shape[0] = batch;
            System.arraycopy(outputShape, 0, shape, 1, outputShape.length);
            return shape;
        }
    }

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
    static Signature signature(OrtSession session, Path model) throws OrtException, DataException {
        Map<String, NodeInfo> inputs = session.getInputInfo();
        Map<String, NodeInfo> outputs = session.getOutputInfo();
        if (inputs.size() != 1 || outputs.size() != 1) {
            throw new DataException(model, "has " + inputs.size() + " inputs and " + outputs.size()
                    + " outputs, expected 1 and 1");
        }
        NodeInfo input = inputs.values().iterator().next();
        NodeInfo output = outputs.values().iterator().next();
        long[] features = perSample(model, "input", input);
        if (features.length != 1) {
            throw new DataException(model, "input '" + input.getName() + "' is not [batch, F]");
        }
        Signature io = new Signature(input.getName(), output.getName(), (int) features[0],
                perSample(model, "output", output));
        Path models = model.toAbsolutePath().getParent();
        Inputs.checkSampleWidths(model, models, io.features(), io.outputWidth());
        return io;
    }

    /** A float tensor's dimensions after the batch one, each fixed. */
    private static long[] perSample(Path model, String role, NodeInfo node) throws DataException {
        if (!(node.getInfo() instanceof TensorInfo tensor)
                || tensor.type != ai.onnxruntime.OnnxJavaType.FLOAT) {
            throw new DataException(model, role + " '" + node.getName() + "' is not a float32 tensor");
        }
        long[] shape = tensor.getShape();
        if (shape.length == 0) {
            throw new DataException(model, role + " '" + node.getName() + "' is a scalar");
        }
        long[] rest = Arrays.copyOfRange(shape, 1, shape.length);
        for (long d : rest) {
            if (d < 1) {
                throw new DataException(model, role + " '" + node.getName() + "' is "
                        + Arrays.toString(shape) + ": only the batch size may be symbolic");
            }
        }
        return rest;
    }

    /** Runs one batch of zeros and checks the output's shape against the signature. */
    static void requireOutputShape(OrtEnvironment env, OrtSession session, Path model, int batch,
            Signature io) throws OrtException, DataException {
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
