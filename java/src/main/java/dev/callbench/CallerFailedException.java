package dev.callbench;

/**
 * A caller's call failed (contract 4): {@code <driver>: error: caller C: <problem>},
 * exit 1. The other callers are daemon threads: the process ends with them wherever
 * they are.
 */
public final class CallerFailedException extends CallbenchException {
    private static final long serialVersionUID = 1L;

    private final String problem;

    public CallerFailedException(int caller, Throwable cause) {
        this(null, "caller " + caller + ": " + (cause instanceof CallbenchException
                ? cause.getMessage() : CallbenchException.oneLine(cause)), cause);
    }

    private CallerFailedException(String driverId, String problem, Throwable cause) {
        super((driverId == null ? "" : driverId + ": error: ") + problem, cause);
        this.problem = problem;
    }

    @Override
    public CallerFailedException withDriver(String driverId) {
        return new CallerFailedException(driverId, problem, getCause());
    }

    @Override
    public int exitStatus() {
        return 1;
    }
}
