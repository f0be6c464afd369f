package dev.callbench;

/**
 * A model that takes callers (contract 4): loaded once, each caller's call state made
 * by {@link #caller()} (on the entry's thread, in caller order) and then called from
 * that caller's thread only. At one caller the loaded model itself is called, as
 * before contract 4. Closing the loaded model comes after every caller's is closed.
 */
public interface TakesCallers extends TensorModel {
    /** One caller's call state: its bound tensors, its predictor, its own module... */
    TensorModel caller() throws Exception;

    /** How the callers hold the model, and what each gets. */
    Holding holding();

    /**
     * How a driver's callers hold the model, as its runtime documents: {@link #SHARED}
     * (one handle called from every caller) or {@link #PER_CALLER} (one each).
     */
    record Holding(String holds, String how) {
        public static final String SHARED = "shared";
        public static final String PER_CALLER = "per caller";
    }
}
