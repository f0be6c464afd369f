package dev.callbench;

/**
 * A failure a person can act on: one line for stderr and the exit status the
 * contract gives it. The JPype host prints {@link #getMessage()} and exits with
 * {@link #exitStatus()}, so no stack trace reaches the user.
 */
public abstract class CallbenchException extends Exception {
    private static final long serialVersionUID = 1L;

    protected CallbenchException(String line, Throwable cause) {
        super(line, cause);
    }

    /** The process exit status for this failure (2 usage, 1 data or model). */
    public abstract int exitStatus();

    /**
     * The same failure as the contract's line for {@code driverId}
     * ({@code <driver-id>: usage: ...} or {@code <driver-id>: error: ...}).
     * The kit's parts throw without the id; {@link DriverMain} adds it once, at the top.
     */
    public abstract CallbenchException withDriver(String driverId);

    /** A throwable's message reduced to its first non-blank line, for one-line errors. */
    public static String oneLine(Throwable e) {
        String message = e.getMessage();
        if (message != null) {
            for (String line : message.split("\\R")) {
                if (!line.isBlank()) {
                    return line.strip();
                }
            }
        }
        return e.getClass().getSimpleName();
    }
}
