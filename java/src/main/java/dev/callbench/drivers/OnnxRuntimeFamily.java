package dev.callbench.drivers;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallersDriver;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TakesCallers;
import dev.callbench.TakesCallers.Holding;
import java.nio.file.Path;
import java.util.Map;

/**
 * What both ONNX Runtime Java API drivers share: the artifact, the session
 * (opened, its signature read and checked once, closed if the driver's call
 * cannot be set up), the version and the notes. A driver gives its id, what
 * its call does, and the call on every input and output (contract version 3).
 * Their callers (contract 4) share the session, as ONNX Runtime documents
 * {@code OrtSession.run} safe to call from many threads: each caller gets the
 * driver's call bound over the one session (its own tensors, buffers and maps).
 */
abstract class OnnxRuntimeFamily extends BoundFamily implements CallersDriver {
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

    /**
     * With {@code --gathered} (contract 7): makes {@code bound}'s calls of each size 1..B
     * ready, for a driver whose call takes the gathered size; the others leave it (their
     * model does not take it, and the entry refuses the option).
     */
    void gatherUpTo(Bound bound, OrtEnvironment env) throws Exception {}

    /**
     * Whether each caller opens a session of its own (the other holding: no caller's run
     * waits on another's session, at the cost of a copy of the model a caller); false: the
     * callers share the one session.
     */
    boolean sessionPerCaller() {
        return false;
    }

    /** A caller's own session with the driver's call bound over it; closing it closes it. */
    private Bound ownSession(OrtEnvironment env, Path model, Options options, Signature signature)
            throws Exception {
        OrtSession own = OnnxRuntimeSessions.open(env, model, options.threads);
        return releasingOnFailure(() -> OnnxRuntimeSessions.close(own),
                () -> bind(env, own, options.batch, signature));
    }

    @Override
    public final String artifact() {
        return "mlp.onnx";
    }

    @Override
    public final TakesCallers load(Path model, Options options) throws Exception {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session = OnnxRuntimeSessions.open(env, model, options.threads);
        return releasingOnFailure(() -> OnnxRuntimeSessions.close(session), () -> {
            Signature signature = OnnxRuntimeSessions.signature(session, model);
            OnnxRuntimeSessions.checkAnswers(env, session, model, options.batch, signature);
            Bound bound = bind(env, session, options.batch, signature);
            if (options.gathered) {
                gatherUpTo(bound, env);
            }
            BoundFamily.Bound first = bound.describedBy(this);
            if (sessionPerCaller()) {
                Holding holding = new Holding(Holding.PER_CALLER,
                        "an OrtSession of its own in each caller; the driver's call bound over it");
                return first.takingCallers(holding, () -> ownSession(env, model, options, signature));
            }
            Holding holding = new Holding(Holding.SHARED,
                    "one OrtSession (its run is safe from many threads); each caller the driver's call bound over it");
            return first.takingCallers(holding,
                    () -> bind(env, session, options.batch, signature).overAnothersHandle());
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
