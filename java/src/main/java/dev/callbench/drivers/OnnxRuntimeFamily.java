package dev.callbench.drivers;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.Model;
import dev.callbench.Options;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What both ONNX Runtime drivers share: the artifact, the session (opened and
 * checked once, closed if the driver's call cannot be set up), the version
 * and the notes. A driver gives its id, what its call does, and the call.
 */
abstract class OnnxRuntimeFamily implements Driver {
    private final String id;
    private final String call;

    OnnxRuntimeFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /**
     * A driver's model over an open session: its sample widths are the model's
     * signature's, and closing it closes the session.
     */
    abstract static class Bound implements Model {
        final OrtSession session;
        final int features;
        final int outputWidth;

        Bound(OrtSession session, OnnxSignature io) {
            this.session = session;
            this.features = io.features();
            this.outputWidth = io.outputWidth();
        }

        @Override
        public final int inputWidth() {
            return features;
        }

        @Override
        public final int outputWidth() {
            return outputWidth;
        }

        @Override
        public void close() {
            OnnxRuntimeSessions.close(session);
        }
    }

    /**
     * The driver's call over an open session whose output the signature
     * describes (checked by one run); closing it closes the session.
     */
    abstract Model bind(OrtEnvironment env, OrtSession session, int batch,
            OnnxSignature io) throws OrtException;

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return "mlp.onnx";
    }

    @Override
    public final Model load(Path model, Options options) throws OrtException, DataException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        try {
            OnnxSignature io = OnnxRuntimeSessions.signature(session, model);
            OnnxRuntimeSessions.requireOutputShape(env, session, model, options.batch, io);
            return bind(env, session, options.batch, io);
        } catch (OrtException | DataException | RuntimeException e) {
            OnnxRuntimeSessions.close(session);
            throw e;
        }
    }

    @Override
    public final String runtimeVersion() {
        return OnnxRuntimeSessions.version();
    }

    @Override
    public final Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", call);
        notes.put("session", "intra-op threads = --threads, inter-op 1, sequential, all graph optimisations");
        return notes;
    }
}
