package dev.callbench.drivers;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TensorModel;
import java.nio.file.Path;
import java.util.Map;

/**
 * What both ONNX Runtime Java API drivers share: the artifact, the session
 * (opened, its signature read and checked once, closed if the driver's call
 * cannot be set up), the version and the notes. A driver gives its id, what
 * its call does, and the call on every input and output (contract version 3).
 */
abstract class OnnxRuntimeFamily extends BoundFamily {
    OnnxRuntimeFamily(String id, String call) {
        super(id, call);
    }

    /** A driver's model over an open session; closing it closes the session. */
    abstract static class Bound extends BoundFamily.Bound {
        final OrtSession session;

        Bound(OrtSession session, Signature signature) {
            super(signature, () -> OnnxRuntimeSessions.close(session));
            this.session = session;
        }
    }

    /**
     * The driver's call over an open session whose outputs the signature
     * describes (checked by one run); closing it closes the session.
     */
    abstract Bound bind(OrtEnvironment env, OrtSession session, int batch, Signature signature)
            throws OrtException;

    @Override
    public final String artifact() {
        return "mlp.onnx";
    }

    @Override
    public final TensorModel load(Path model, Options options) throws Exception {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        return releasingOnFailure(() -> OnnxRuntimeSessions.close(session), () -> {
            Signature signature = OnnxRuntimeSessions.signature(session, model);
            OnnxRuntimeSessions.checkAnswers(env, session, model, options.batch, signature);
            return bind(env, session, options.batch, signature).describedBy(this);
        });
    }

    @Override
    final String runtimeVersion() {
        return OnnxRuntimeSessions.version();
    }

    @Override
    final Map<String, Object> runtimeNotes() {
        return Map.of("session", "intra-op threads = --threads, inter-op 1, sequential, all graph optimisations");
    }
}
