package dev.callbench;

import java.nio.file.Path;

/**
 * A bad input file or model: {@code <driver>: error: <path>: <problem>}, exit 1.
 * Readers throw it without a driver id ({@link #withDriver} adds one), because
 * they do not know which driver is reading.
 */
public final class DataException extends CallbenchException {
    private static final long serialVersionUID = 1L;

    private final Path path;
    private final String problem;

    public DataException(Path path, String problem) {
        this(null, path, problem, null);
    }

    public DataException(Path path, String problem, Throwable cause) {
        this(null, path, problem, cause);
    }

    private DataException(String driverId, Path path, String problem, Throwable cause) {
        super((driverId == null ? "" : driverId + ": error: ") + path + ": " + problem, cause);
        this.path = path;
        this.problem = problem;
    }

    /** The same failure, its message prefixed with {@code <driverId>: error: }. */
    @Override
    public DataException withDriver(String driverId) {
        return new DataException(driverId, path, problem, getCause());
    }

    public Path path() {
        return path;
    }

    public String problem() {
        return problem;
    }

    @Override
    public int exitStatus() {
        return 1;
    }
}
