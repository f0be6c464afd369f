package dev.callbench.drivers;

import dev.callbench.Driver;
import dev.callbench.Signature;
import dev.callbench.TakesCallers;
import dev.callbench.TensorModel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the three Java driver families (ONNX Runtime, DJL, org.pytorch) share: a driver's id
 * and the words of its call, which lead its model's notes; its model bound over the runtime
 * handle the family opened ({@link Bound}: the signature kept, the runtime's version and
 * the notes told, the handle released on close); and the handle released at once when the
 * driver's call cannot be set up ({@link #releasingOnFailure}). A family adds its artifact,
 * how it opens the handle, its runtime's version and notes.
 */
abstract class BoundFamily implements Driver {
    private final String id;
    private final String call;

    BoundFamily(String id, String call) {
        this.id = id;
        this.call = call;
    }

    /**
     * A driver's model over an opened runtime handle and its signature; its family tells its
     * runtime's version and notes; closing it releases the handle. A family whose driver takes
     * callers (contract 4) says how each caller's model is made ({@link #takingCallers}).
     */
    abstract static class Bound implements TakesCallers {
        final Signature signature;
        private final Runnable release;
        private BoundFamily family;
        private boolean owner = true;
        private Setup<Bound> callers;
        private Holding holding;

        Bound(Signature signature, Runnable release) {
            this.signature = signature;
            this.release = release;
        }

        @Override
        public final Signature signature() {
            return signature;
        }

        /** This model, its version and notes now its family's. */
        final Bound describedBy(BoundFamily family) {
            this.family = family;
            return this;
        }

        @Override
        public final String runtimeVersion() {
            return family.runtimeVersion();
        }

        @Override
        public final Map<String, Object> notes() {
            Map<String, Object> notes = new LinkedHashMap<>(family.notes());
            notes.putAll(bindingNotes());
            return notes;
        }

        /** What this model's own binding adds to its family's notes (contract 7's gathered call). */
        Map<String, Object> bindingNotes() {
            return Map.of();
        }

        /** This model, over a handle another model owns (a caller's, contract 4): closing it leaves the handle. */
        final Bound overAnothersHandle() {
            owner = false;
            return this;
        }

        /** This model, each of its callers' made by {@code caller} and held as {@code holding} says. */
        final Bound takingCallers(Holding holding, Setup<Bound> caller) {
            this.holding = holding;
            this.callers = caller;
            return this;
        }

        @Override
        public final TensorModel caller() throws Exception {
            if (callers == null) {
                throw new IllegalStateException("this driver runs one caller");
            }
            return callers.run().describedBy(family);
        }

        @Override
        public final Holding holding() {
            return holding;
        }

        @Override
        public void close() {
            if (owner) {
                release.run();
            }
        }
    }

    /** A step of a load that may fail once the handle is open. */
    interface Setup<T> {
        T run() throws Exception;
    }

    /** {@code setup}'s model, or, if it throws, the handle released by {@code release} and the error rethrown. */
    static <T> T releasingOnFailure(Runnable release, Setup<T> setup) throws Exception {
        try {
            return setup.run();
        } catch (Exception e) {
            release.run();
            throw e;
        }
    }

    /** The runtime's version (asked once the model is loaded). */
    abstract String runtimeVersion();

    /** The runtime's own notes, after the call's words. */
    abstract Map<String, Object> runtimeNotes();

    @Override
    public final String id() {
        return id;
    }

    /** The model's notes: the call's words, then the runtime's. */
    final Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", call);
        notes.putAll(runtimeNotes());
        return notes;
    }
}
