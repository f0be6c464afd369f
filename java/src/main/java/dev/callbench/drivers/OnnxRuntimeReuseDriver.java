package dev.callbench.drivers;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
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
 * Java array is allocated per call either. With {@code --gathered} (contract 7) the
 * batcher's calls run at the size they gathered: tensors of each size 1..B made at load
 * the same way (ONNX Runtime takes a changing batch dimension without reloading).
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

    @Override
    void gatherUpTo(Bound bound, OrtEnvironment env) throws Exception {
        ((Reuse) bound).gatherUpTo(env);
    }

    /** One size's tensors for contract 7's gathered calls: over direct buffers of n samples. */
    private record Sized(ByteBuffer[] in, ByteBuffer[] out, Map<String, OnnxTensor> inputs,
            Map<String, OnnxTensor> pinned) {}

    private static final class Reuse extends Bound {
        private final int[] inSamples;
        private final int[] outSamples;
        private final int batch;
        private final ByteBuffer[] inBuffers;
        private final ByteBuffer[] outBuffers;
        private final List<OnnxTensor> made = new ArrayList<>();
        private final Map<String, OnnxTensor> inputs;
        private final Map<String, OnnxTensor> pinned;
        private Sized[] sized; // --gathered: sized[n - 1], the tensors of n samples; else null

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
            return wrap(env, tensors, buffers, batch);
        }

        /** ... of {@code samples} samples each. */
        private Map<String, OnnxTensor> wrap(OrtEnvironment env, List<Tensor> tensors,
                ByteBuffer[] buffers, int samples) throws OrtException {
            Map<String, OnnxTensor> byName = new LinkedHashMap<>();
            for (int k = 0; k < buffers.length; k++) {
                Tensor tensor = tensors.get(k);
                buffers[k] = OnnxRuntimeSessions.direct(samples * tensor.sampleBytes());
                OnnxTensor wrapped = OnnxRuntimeSessions.tensor(env, buffers[k], tensor, samples);
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

        /**
         * Contract 7's gathered calls: the tensors of each size 1..B, each size run once here
         * (a graph that fixes its batch takes none: refused, naming the model).
         */
        void gatherUpTo(OrtEnvironment env) throws OrtException {
            for (NodeInfo node : session.getInputInfo().values()) {
                if (node.getInfo() instanceof TensorInfo info && info.getShape().length > 0
                        && info.getShape()[0] > 0) {
                    throw new IllegalArgumentException("input '" + node.getName()
                            + "' has a fixed batch dimension of " + info.getShape()[0]
                            + ": it takes no gathered call");
                }
            }
            sized = new Sized[batch];
            for (int n = 1; n <= batch; n++) {
                ByteBuffer[] in = new ByteBuffer[inBuffers.length];
                ByteBuffer[] out = new ByteBuffer[outBuffers.length];
                Sized s = new Sized(in, out, wrap(env, signature.inputs(), in, n),
                        wrap(env, signature.outputs(), out, n));
                session.run(s.inputs(), s.pinned()).close();
                sized[n - 1] = s;
            }
        }

        @Override
        Map<String, Object> bindingNotes() {
            return sized == null ? Map.of()
                    : Map.of("gathered_call", "session.run over tensors of the n gathered, made at load for each n");
        }

        @Override
        public boolean takesGathered() {
            return sized != null;
        }

        @Override
        public void callGathered(ByteBuffer[] values, ByteBuffer[] into, int samples) throws OrtException {
            Sized s = sized[samples - 1];
            for (int k = 0; k < inBuffers.length; k++) {
                s.in()[k].put(0, values[k], 0, samples * inSamples[k]);
            }
            session.run(s.inputs(), s.pinned()).close();
            for (int k = 0; k < outBuffers.length; k++) {
                into[k].put(0, s.out()[k], 0, samples * outSamples[k]);
            }
        }

        @Override
        public void close() {
            made.forEach(OnnxTensor::close);
            super.close();
        }
    }
}
