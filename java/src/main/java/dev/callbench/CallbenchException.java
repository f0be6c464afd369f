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
}
