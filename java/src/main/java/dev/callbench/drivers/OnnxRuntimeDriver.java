package dev.callbench.drivers;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import java.nio.FloatBuffer;
import java.util.Map;

/**
 * java-onnxruntime: the ONNX Runtime Java API called the plain documented way,
 * a new input tensor per call from a slice of the inputs, {@code session.run}
 * with the input map, and the output read back as a Java array.
 */
public final class OnnxRuntimeDriver extends OnnxRuntimeFamily {
    public OnnxRuntimeDriver() {
        super("java-onnxruntime", "OnnxTensor.createTensor(FloatBuffer slice) + session.run(Map)"
                + " + float[][] output, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeDriver(), args);
    }

    @Override
    Model bind(OrtEnvironment env, OrtSession session, int batch) {
        return new Plain(env, session, batch);
    }

    private static final class Plain implements Model {
        private final OrtEnvironment env;
        private final OrtSession session;
        private final int batch;
        private final long[] shape;

        Plain(OrtEnvironment env, OrtSession session, int batch) {
            this.env = env;
            this.session = session;
            this.batch = batch;
            this.shape = new long[] {batch, 2};
        }

        @Override
        public void call(float[] inputs, int first, float[] outputs) throws OrtException {
            FloatBuffer slice = FloatBuffer.wrap(inputs, 2 * first, 2 * batch);
            try (OnnxTensor x = OnnxTensor.createTensor(env, slice, shape);
                    OrtSession.Result result = session.run(Map.of(OnnxRuntimeSessions.INPUT, x))) {
                float[][] y = (float[][]) result.get(0).getValue();
                for (int i = 0; i < batch; i++) {
                    outputs[first + i] = y[i][0];
                }
            }
        }

        @Override
        public void close() {
            OnnxRuntimeSessions.close(session);
        }
    }
}
