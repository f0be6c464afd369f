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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
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
    @Override
    public String id() {
        return "java-onnxruntime-reuse";
    }

    @Override
    public Inference load(Path model, Options options) throws OrtException, DataException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        Reuse reuse = null;
        try {
            reuse = new Reuse(env, session, options.batch);
            OutputShape.require(model, reuse.probeShape(), options.batch);
            return reuse;
        } catch (DataException | OrtException e) {
            if (reuse != null) {
                reuse.close();
            } else {
                session.close();
            }
            throw e;
        }
    }

    private static FloatBuffer direct(int floats) {
        return ByteBuffer.allocateDirect(4 * floats).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    private static final class Reuse implements Inference {
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

        long[] probeShape() throws OrtException {
            // A pinned output of the wrong shape makes run() fail, so probe unpinned.
            try (OrtSession.Result result = session.run(inputs)) {
                return ((OnnxTensor) result.get(0)).getInfo().getShape();
            }
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

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeReuseDriver(), args);
    }
}
