package dev.callbench.drivers;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.DataException;
import dev.callbench.Driver;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What both ONNX Runtime Java API drivers share: the artifact, the session
 * (opened, its signature read and checked once, closed if the driver's call
 * cannot be set up), the version and the notes. A driver gives its id, what
 * its call does, and the call on every input and output (contract version 3).
 */
abstract class OnnxRuntimeFamily implements Driver {
    private final String id;
    private final String call;

    OnnxRuntimeFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /** A driver's model over an open session whose signature it keeps; closing it closes the session. */
    abstract static class Bound implements TensorModel {
        final OrtSession session;
        final Signature signature;

        Bound(OrtSession session, Signature signature) {
            this.session = session;
            this.signature = signature;
        }

        @Override
        public final Signature signature() {
            return signature;
        }

        @Override
        public void close() {
            OnnxRuntimeSessions.close(session);
        }
    }

    /**
     * The driver's call over an open session whose outputs the signature
     * describes (checked by one run); closing it closes the session.
     */
    abstract TensorModel bind(OrtEnvironment env, OrtSession session, int batch, Signature signature)
            throws OrtException;

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String artifact() {
        return "mlp.onnx";
    }

    @Override
    public final TensorModel load(Path model, Options options) throws OrtException, DataException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        try {
            Signature signature = OnnxRuntimeSessions.signature(session, model);
            OnnxRuntimeSessions.checkAnswers(env, session, model, options.batch, signature);
            return bind(env, session, options.batch, signature);
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
