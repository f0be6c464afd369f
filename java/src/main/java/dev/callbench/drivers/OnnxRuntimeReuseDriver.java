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
    Model bind(OrtEnvironment env, OrtSession session, int batch) throws OrtException {
        return new Reuse(env, session, batch);
    }

    private static FloatBuffer direct(int floats) {
        return ByteBuffer.allocateDirect(4 * floats).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    private static final class Reuse implements Model {
        private final OrtSession session;
        private final int batch;
        private final FloatBuffer inBuffer;
        private final FloatBuffer outBuffer;
        private final OnnxTensor input;
        private final OnnxTensor output;
        private final Map<String, OnnxTensor> inputs;
        private final Map<String, OnnxTensor> pinned;

        Reuse(OrtEnvironment env, OrtSession session, int batch) throws OrtException {
            this.session = session;
            this.batch = batch;
            this.inBuffer = direct(2 * batch);
            this.outBuffer = direct(batch);
            this.input = OnnxTensor.createTensor(env, inBuffer, new long[] {batch, 2});
            try {
                this.output = OnnxTensor.createTensor(env, outBuffer, new long[] {batch, 1});
            } catch (OrtException e) {
                input.close();
                throw e;
            }
            this.inputs = Map.of(OnnxRuntimeSessions.INPUT, input);
            this.pinned = Map.of(OnnxRuntimeSessions.OUTPUT, output);
        }

        @Override
        public void call(float[] values, int first, float[] outputs) throws OrtException {
            inBuffer.put(0, values, 2 * first, 2 * batch);
            // The result does not own the pinned output: closing it frees nothing of ours.
            session.run(inputs, pinned).close();
            outBuffer.get(0, outputs, first, batch);
        }

        @Override
        public void close() {
            input.close();
            output.close();
            OnnxRuntimeSessions.close(session);
        }
    }
}
