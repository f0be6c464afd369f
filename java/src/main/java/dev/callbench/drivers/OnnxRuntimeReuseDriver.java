package dev.callbench.drivers;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * java-onnxruntime-reuse: the fastest way the ONNX Runtime Java API documents.
 * A tensor made from a direct buffer wraps that memory without copying, so
 * one tensor per input is made once, at load, and its buffer rewritten each
 * call; every output is a pinned tensor over another direct buffer
 * ({@code OrtSession.run(inputs, pinnedOutputs)}), so no output tensor or
 * Java array is allocated per call either.
 */
public class OnnxRuntimeReuseDriver extends OnnxRuntimeFamily {
    static final String CALL =
            "one tensor per input over a rewritten direct buffer, session.run(inputs, pinned output tensors)";

    public OnnxRuntimeReuseDriver() {
        super("java-onnxruntime-reuse", CALL);
    }

    OnnxRuntimeReuseDriver(String id, String call) {
        super(id, call);
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeReuseDriver(), args);
    }

    @Override
    Bound bind(OrtEnvironment env, OrtSession session, int batch, Signature signature)
            throws OrtException {
        return new Reuse(env, session, batch, signature);
    }

    private static final class Reuse extends Bound {
        private final int[] inSamples;
        private final int[] outSamples;
        private final int batch;
        private final ByteBuffer[] inBuffers;
        private final ByteBuffer[] outBuffers;
        private final List<OnnxTensor> made = new ArrayList<>();
        private final Map<String, OnnxTensor> inputs;
        private final Map<String, OnnxTensor> pinned;

        Reuse(OrtEnvironment env, OrtSession session, int batch, Signature signature)
                throws OrtException {
            super(session, signature);
            this.batch = batch;
            List<Tensor> ins = signature.inputs();
            List<Tensor> outs = signature.outputs();
            this.inSamples = ins.stream().mapToInt(Tensor::sampleBytes).toArray();
            this.outSamples = outs.stream().mapToInt(Tensor::sampleBytes).toArray();
            this.inBuffers = new ByteBuffer[ins.size()];
            this.outBuffers = new ByteBuffer[outs.size()];
            try {
                this.inputs = wrap(env, ins, inBuffers);
                this.pinned = wrap(env, outs, outBuffers);
            } catch (OrtException | RuntimeException e) {
                made.forEach(OnnxTensor::close);
                throw e;
            }
        }

        /** A tensor over a direct buffer made once for each of {@code tensors}, by name. */
        private Map<String, OnnxTensor> wrap(OrtEnvironment env, List<Tensor> tensors,
                ByteBuffer[] buffers) throws OrtException {
            Map<String, OnnxTensor> byName = new LinkedHashMap<>();
            for (int k = 0; k < buffers.length; k++) {
                Tensor tensor = tensors.get(k);
                buffers[k] = OnnxRuntimeSessions.direct(batch * tensor.sampleBytes());
                OnnxTensor wrapped = OnnxRuntimeSessions.tensor(env, buffers[k], tensor, batch);
                made.add(wrapped);
                byName.put(tensor.name(), wrapped);
            }
            return Map.copyOf(byName);
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) throws OrtException {
            for (int k = 0; k < inBuffers.length; k++) {
                inBuffers[k].put(0, values[k], first * inSamples[k], batch * inSamples[k]);
            }
            // The result does not own the pinned outputs: closing it frees nothing of ours.
            session.run(inputs, pinned).close();
            for (int k = 0; k < outBuffers.length; k++) {
                into[k].put(first * outSamples[k], outBuffers[k], 0, batch * outSamples[k]);
            }
        }

        @Override
        public void close() {
            made.forEach(OnnxTensor::close);
            super.close();
        }
    }
}
