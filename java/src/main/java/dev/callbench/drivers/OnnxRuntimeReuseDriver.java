package dev.callbench.drivers;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Map;

/**
 * java-onnxruntime-reuse: the fastest way the ONNX Runtime Java API documents.
 * A tensor made from a direct FloatBuffer wraps that memory without copying,
 * so one input tensor is created once and its buffer rewritten each call; the
 * output is a pinned tensor over another direct buffer
 * ({@code OrtSession.run(inputs, pinnedOutputs)}), so no output tensor or Java
 * array is allocated per call either.
 */
public final class OnnxRuntimeReuseDriver extends OnnxRuntimeFamily {
    public OnnxRuntimeReuseDriver() {
        super("java-onnxruntime-reuse",
                "one input tensor over a rewritten direct buffer, session.run(inputs, pinned output tensor)");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeReuseDriver(), args);
    }

    @Override
    Model bind(OrtEnvironment env, OrtSession session, int batch, OnnxSignature io)
            throws OrtException {
        return new Reuse(env, session, batch, io);
    }

    private static FloatBuffer direct(int floats) {
        return ByteBuffer.allocateDirect(4 * floats).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    private static final class Reuse extends Bound {
        private final int inFloats;
        private final int outFloats;
        private final FloatBuffer inBuffer;
        private final FloatBuffer outBuffer;
        private final OnnxTensor input;
        private final OnnxTensor output;
        private final Map<String, OnnxTensor> inputs;
        private final Map<String, OnnxTensor> pinned;

        Reuse(OrtEnvironment env, OrtSession session, int batch, OnnxSignature io)
                throws OrtException {
            super(session, io);
            this.inFloats = features * batch;
            this.outFloats = outputWidth * batch;
            this.inBuffer = direct(inFloats);
            this.outBuffer = direct(outFloats);
            this.input = OnnxTensor.createTensor(env, inBuffer, new long[] {batch, features});
            try {
                this.output = OnnxTensor.createTensor(env, outBuffer, io.outputShape(batch));
            } catch (OrtException e) {
                input.close();
                throw e;
            }
            this.inputs = Map.of(io.input(), input);
            this.pinned = Map.of(io.output(), output);
        }

        @Override
        public void call(float[] values, int first, float[] outputs) throws OrtException {
            inBuffer.put(0, values, features * first, inFloats);
            // The result does not own the pinned output: closing it frees nothing of ours.
            session.run(inputs, pinned).close();
            outBuffer.get(0, outputs, outputWidth * first, outFloats);
        }

        @Override
        public void close() {
            input.close();
            output.close();
            super.close();
        }
    }
}
