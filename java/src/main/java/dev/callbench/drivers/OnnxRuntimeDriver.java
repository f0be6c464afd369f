package dev.callbench.drivers;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallbenchException;
import dev.callbench.DataException;
import dev.callbench.DriverMain;
import dev.callbench.Inference;
import dev.callbench.Options;
import dev.callbench.OutputShape;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;

/**
 * java-onnxruntime: the ONNX Runtime Java API called the plain documented way,
 * a new input tensor per call from a slice of the inputs, {@code session.run}
 * with the input map, and the output read back as a Java array.
 */
public final class OnnxRuntimeDriver extends OnnxRuntimeFamily {
    @Override
    public String id() {
        return "java-onnxruntime";
    }

    @Override
    public Inference load(Path model, Options options) throws OrtException, DataException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        Plain plain = new Plain(env, session, options.batch);
        try {
            OutputShape.require(model, plain.probeShape(), options.batch);
        } catch (DataException | OrtException e) {
            plain.close();
            throw e;
        }
        return plain;
    }

    private static final class Plain implements Inference {
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

        long[] probeShape() throws OrtException {
            float[] zeros = new float[2 * batch];
            try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(zeros), shape);
                    OrtSession.Result result = session.run(Map.of(OnnxRuntimeSessions.INPUT, x))) {
                return ((OnnxTensor) result.get(0)).getInfo().getShape();
            }
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

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeDriver(), args);
    }
}
