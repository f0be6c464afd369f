package dev.callbench.drivers;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.DriverMain;
import dev.callbench.Model;
import dev.callbench.Options;
import dev.callbench.OutputShape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * java-onnxruntime-ffm: ONNX Runtime's C API called from Java through the
 * Foreign Function &amp; Memory API (JDK 22+), no JNI. The library is the one
 * inside the onnxruntime jar that java-onnxruntime-reuse loads through JNI, so
 * the two rows differ only in the binding. Like that row, an input and an
 * output tensor wrap memory made once, and each call copies the batch in,
 * calls {@code OrtApi::Run} with the preallocated output, and copies it out.
 */
public final class OnnxRuntimeFfmDriver implements Driver {
    /** The system property naming libonnxruntime.so (the build extracts the jar's). */
    static final String LIBRARY_PROPERTY = "callbench.onnxruntime.library";

    private OrtCApi api;

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
    public Model load(Path model, Options options) throws Exception {
        String library = System.getProperty(LIBRARY_PROPERTY);
        if (library == null) {
            throw new IllegalStateException("-D" + LIBRARY_PROPERTY + " is not set");
        }
        api = new OrtCApi(Path.of(library));
        return new Bound(api, model, options.threads, options.batch);
    }

    @Override
    public String runtimeVersion() {
        return api == null ? "unknown" : api.version();
    }

    @Override
    public Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", "OrtApi::Run through a java.lang.foreign downcall, input and output"
                + " tensors over native memory made once");
        notes.put("session",
                "intra-op threads = --threads, inter-op 1, sequential, all graph optimisations");
        notes.put("binding", "Foreign Function & Memory API, Java " + Runtime.version().feature());
        return notes;
    }

    /** A session and the native memory of one call's input and output, freed together. */
    private static final class Bound implements Model {
        private final OrtCApi api;
        private final Arena arena = Arena.ofConfined();
        private final MemorySegment env;
        private final MemorySegment session;
        private final OnnxSignature io;
        private final int inFloats;
        private final int outFloats;
        private MemorySegment memory = MemorySegment.NULL;
        private MemorySegment input = MemorySegment.NULL;
        private MemorySegment output = MemorySegment.NULL;
        private MemorySegment x;
        private MemorySegment y;
        private MemorySegment inputNames;
        private MemorySegment inputValues;
        private MemorySegment outputNames;
        private MemorySegment outputValues;

        Bound(OrtCApi api, Path model, int threads, int batch)
                throws OrtCApi.Failure, DataException {
            this.api = api;
            this.env = api.createEnv(arena);
            MemorySegment opened = MemorySegment.NULL;
            try {
                opened = api.createSession(arena, env, model, threads);
                this.session = opened;
                long inputs = api.count(arena, session, false);
                long outputs = api.count(arena, session, true);
                // A model without an input or output: no port to read, the counts say why.
                this.io = OnnxSignature.of(model, inputs, outputs,
                        inputs > 0 ? api.port(arena, session, false, 0) : null,
                        outputs > 0 ? api.port(arena, session, true, 0) : null);
                this.inFloats = io.features() * batch;
                this.outFloats = io.outputWidth() * batch;
                bind(model, batch);
            } catch (OrtCApi.Failure | DataException | RuntimeException e) {
                close(opened);
                throw e;
            }
        }

        /** Checks the output shape with one run of zeros, then makes the call's tensors. */
        private void bind(Path model, int batch) throws OrtCApi.Failure, DataException {
            memory = api.cpuMemory(arena);
            x = arena.allocate(JAVA_FLOAT, inFloats);
            input = api.floatTensor(arena, memory, x, new long[] {batch, io.features()});
            inputNames = arena.allocateFrom(ADDRESS, arena.allocateFrom(io.input()));
            inputValues = arena.allocateFrom(ADDRESS, input);
            outputNames = arena.allocateFrom(ADDRESS, arena.allocateFrom(io.output()));
            // NULL: Run makes the output, whose shape is the model's answer.
            MemorySegment made = arena.allocate(ADDRESS);
            api.run(session, inputNames, inputValues, outputNames, made);
            try {
                OutputShape.require(model, api.valueShape(arena, made.get(ADDRESS, 0)), batch,
                        io.outputWidth());
            } finally {
                api.releaseValue(made.get(ADDRESS, 0));
            }
            y = arena.allocate(JAVA_FLOAT, outFloats);
            output = api.floatTensor(arena, memory, y, io.outputShape(batch));
            outputValues = arena.allocateFrom(ADDRESS, output);
        }

        @Override
        public int inputWidth() {
            return io.features();
        }

        @Override
        public int outputWidth() {
            return io.outputWidth();
        }

        @Override
        public void call(float[] values, int first, float[] outputs) throws OrtCApi.Failure {
            MemorySegment.copy(values, io.features() * first, x, JAVA_FLOAT, 0, inFloats);
            api.run(session, inputNames, inputValues, outputNames, outputValues);
            MemorySegment.copy(y, JAVA_FLOAT, 0, outputs, io.outputWidth() * first, outFloats);
        }

        @Override
        public void close() {
            close(session);
        }

        private void close(MemorySegment opened) {
            api.releaseValue(input);
            api.releaseValue(output);
            api.releaseMemoryInfo(memory);
            api.releaseSession(opened);
            api.releaseEnv(env);
            arena.close();
        }
    }
}
