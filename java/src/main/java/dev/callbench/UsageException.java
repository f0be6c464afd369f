package dev.callbench;

/**
 * A bad option or an out-of-range value: {@code <driver>: usage: <problem>}, exit 2.
 * Thrown with the problem alone; {@link #withDriver} adds the driver's id.
 */
public final class UsageException extends CallbenchException {
    private static final long serialVersionUID = 1L;

    private final String problem;

    public UsageException(String problem) {
        this(null, problem);
    }

    private UsageException(String driverId, String problem) {
        super(driverId == null ? problem : driverId + ": usage: " + problem, null);
        this.problem = problem;
    }

    @Override
    public UsageException withDriver(String driverId) {
        return new UsageException(driverId, problem);
    }

    public String problem() {
        return problem;
    }

    @Override
    public int exitStatus() {
        return 2;
    }
}
