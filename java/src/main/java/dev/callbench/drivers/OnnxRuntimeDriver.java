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
    Model bind(OrtEnvironment env, OrtSession session, int batch, OnnxSignature io) {
        return new Plain(env, session, batch, io);
    }

    private static final class Plain extends Bound {
        private final OrtEnvironment env;
        private final int batch;
        private final long[] shape;
        private final String input;
        private final boolean matrix;

        Plain(OrtEnvironment env, OrtSession session, int batch, OnnxSignature io) {
            super(session, io);
            this.env = env;
            this.batch = batch;
            this.input = io.input();
            this.shape = new long[] {batch, features};
            this.matrix = io.outputShape().length == 1;
        }

        @Override
        public void call(float[] inputs, int first, float[] outputs) throws OrtException {
            FloatBuffer slice = FloatBuffer.wrap(inputs, features * first, features * batch);
            try (OnnxTensor x = OnnxTensor.createTensor(env, slice, shape);
                    OrtSession.Result result = session.run(Map.of(input, x))) {
                if (matrix) {
                    // [batch, O]: the Java array the documented getValue() gives.
                    float[][] y = (float[][]) result.get(0).getValue();
                    for (int i = 0; i < batch; i++) {
                        if (outputWidth == 1) {
                            outputs[first + i] = y[i][0];
                        } else {
                            System.arraycopy(y[i], 0, outputs, outputWidth * (first + i), outputWidth);
                        }
                    }
                } else {
                    // [batch, ...] of higher rank: read the tensor's buffer as it lies.
                    ((OnnxTensor) result.get(0)).getFloatBuffer()
                            .get(outputs, outputWidth * first, outputWidth * batch);
                }
            }
        }
    }
}
