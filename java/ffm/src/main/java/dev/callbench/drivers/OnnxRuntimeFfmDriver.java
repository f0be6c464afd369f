package dev.callbench.drivers;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.DriverMain;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * java-onnxruntime-ffm: ONNX Runtime's C API called from Java through the
 * Foreign Function &amp; Memory API (JDK 22+), no JNI. The library is the one
 * inside the onnxruntime jar that java-onnxruntime-reuse loads through JNI, so
 * the two rows differ only in the binding. Like that row, a tensor of every
 * input and output (contract version 3: any dtype, as its ONNX element type)
 * wraps memory made once, and each call copies every input's batch in, calls
 * {@code OrtApi::Run} with the preallocated outputs, and copies them out.
 */
public final class OnnxRuntimeFfmDriver implements Driver {
    /** The system property naming libonnxruntime.so (the build extracts the jar's). */
    static final String LIBRARY_PROPERTY = "callbench.onnxruntime.library";

    public static void main(String[] args) {
        DriverMain.exit(new OnnxRuntimeFfmDriver(), args);
    }

    @Override
    public String id() {
        return "java-onnxruntime-ffm";
    }

    @Override
    public String artifact() {
        return "mlp.onnx";
    }

    @Override
    public TensorModel load(Path model, Options options) throws Exception {
        String library = System.getProperty(LIBRARY_PROPERTY);
        if (library == null) {
            throw new IllegalStateException("-D" + LIBRARY_PROPERTY + " is not set");
        }
        return new Bound(new OrtCApi(Path.of(library)), model, options.threads, options.batch);
    }

    /** A session and the native memory of one call's inputs and outputs, freed together. */
    private static final class Bound implements TensorModel {
        private final OrtCApi api;
        private final Arena arena = Arena.ofConfined();
        private final MemorySegment env;
        private final MemorySegment session;
        private final Signature signature;
        private final int batch;
        private final int[] inSamples;
        private final int[] outSamples;
        private final List<MemorySegment> values = new ArrayList<>();
        private MemorySegment memory = MemorySegment.NULL;
        // Direct views of the tensors' native memory: a call's copies in and out.
        private ByteBuffer[] x;
        private ByteBuffer[] y;
        private MemorySegment inputNames;
        private MemorySegment inputValues;
        private MemorySegment outputNames;
        private MemorySegment outputValues;

        Bound(OrtCApi api, Path model, int threads, int batch)
                throws OrtCApi.Failure, DataException {
            this.api = api;
            this.batch = batch;
            this.env = api.createEnv(arena);
            MemorySegment opened = MemorySegment.NULL;
            try {
                opened = api.createSession(arena, env, model, threads);
                this.session = opened;
                this.signature = OnnxSignature.of(model, ports(false), ports(true));
                this.inSamples = signature.inputs().stream().mapToInt(Tensor::sampleBytes).toArray();
                this.outSamples = signature.outputs().stream().mapToInt(Tensor::sampleBytes).toArray();
                bind(model);
            } catch (OrtCApi.Failure | DataException | RuntimeException e) {
                close(opened);
                throw e;
            }
        }

        private List<OnnxSignature.Port> ports(boolean outputs) throws OrtCApi.Failure {
            List<OnnxSignature.Port> ports = new ArrayList<>();
            long count = api.count(arena, session, outputs);
            for (long k = 0; k < count; k++) {
                ports.add(api.port(arena, session, outputs, k));
            }
            return ports;
        }

        /** Makes the inputs' tensors, checks the outputs with one run of zeros, then makes theirs. */
        private void bind(Path model) throws OrtCApi.Failure, DataException {
            memory = api.cpuMemory(arena);
            List<Tensor> inputs = signature.inputs();
            List<Tensor> outputs = signature.outputs();
            x = new ByteBuffer[inputs.size()];
            inputNames = names(inputs);
            inputValues = tensors(inputs, x);
            outputNames = names(outputs);
            // NULLs: Run makes the outputs, whose types and shapes are the model's answer.
            MemorySegment made = arena.allocate(ADDRESS, Math.max(outputs.size(), 1));
            api.run(session, inputNames, inputValues, inputs.size(), outputNames, outputs.size(), made);
            try {
                for (int k = 0; k < outputs.size(); k++) {
                    check(model, outputs.get(k), api.valuePort(arena, outputs.get(k).name(),
                            made.getAtIndex(ADDRESS, k)));
                }
            } finally {
                for (int k = 0; k < outputs.size(); k++) {
                    api.releaseValue(made.getAtIndex(ADDRESS, k));
                }
            }
            y = new ByteBuffer[outputs.size()];
            outputValues = tensors(outputs, y);
        }

        private MemorySegment names(List<Tensor> tensors) {
            MemorySegment names = arena.allocate(ADDRESS, Math.max(tensors.size(), 1));
            for (int k = 0; k < tensors.size(); k++) {
                names.setAtIndex(ADDRESS, k, arena.allocateFrom(tensors.get(k).name()));
            }
            return names;
        }

        /** A tensor over native memory made here for each of {@code tensors}; its view into {@code views}. */
        private MemorySegment tensors(List<Tensor> tensors, ByteBuffer[] views) throws OrtCApi.Failure {
            MemorySegment pointers = arena.allocate(ADDRESS, Math.max(tensors.size(), 1));
            for (int k = 0; k < tensors.size(); k++) {
                Tensor tensor = tensors.get(k);
                MemorySegment data = arena.allocate((long) batch * tensor.sampleBytes(), 64);
                MemorySegment value = api.tensor(arena, memory, data, tensor.batchShape(batch),
                        OnnxSignature.elementType(tensor.dtype()));
                values.add(value);
                pointers.setAtIndex(ADDRESS, k, value);
                views[k] = data.asByteBuffer();
            }
            return pointers;
        }

        private void check(Path model, Tensor output, OnnxSignature.Port answered) throws DataException {
            long[] expected = output.batchShape(batch);
            if (answered.dtype() != output.dtype() || !Arrays.equals(answered.shape(), expected)) {
                throw new DataException(model, "model answers '" + output.name() + "' with "
                        + Arrays.toString(answered.shape()) + " of element type "
                        + answered.elementType() + ", expected " + Arrays.toString(expected) + " "
                        + output.dtype().contractName());
            }
        }

        @Override
        public String runtimeVersion() {
            return api.version();
        }

        @Override
        public Map<String, Object> notes() {
            Map<String, Object> notes = new LinkedHashMap<>();
            notes.put("call", "OrtApi::Run through a java.lang.foreign downcall, every input and output"
                    + " a tensor over native memory made once");
            notes.put("session",
                    "intra-op threads = --threads, inter-op 1, sequential, all graph optimisations");
            notes.put("binding", "Foreign Function & Memory API, Java " + Runtime.version().feature());
            return notes;
        }

        @Override
        public Signature signature() {
            return signature;
        }

        @Override
        public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) throws OrtCApi.Failure {
            for (int k = 0; k < x.length; k++) {
                x[k].put(0, inputs[k], first * inSamples[k], batch * inSamples[k]);
            }
            api.run(session, inputNames, inputValues, x.length, outputNames, y.length, outputValues);
            for (int k = 0; k < y.length; k++) {
                outputs[k].put(first * outSamples[k], y[k], 0, batch * outSamples[k]);
            }
        }

        @Override
        public void close() {
            close(session);
        }

        private void close(MemorySegment opened) {
            values.forEach(api::releaseValue);
            api.releaseMemoryInfo(memory);
            api.releaseSession(opened);
            api.releaseEnv(env);
            arena.close();
        }
    }
}
