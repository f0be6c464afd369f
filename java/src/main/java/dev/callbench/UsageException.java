package dev.callbench;

/** A bad option or an out-of-range value: {@code <driver>: usage: <problem>}, exit 2. */
public final class UsageException extends CallbenchException {
    private static final long serialVersionUID = 1L;

    public UsageException(String driverId, String problem) {
        super(driverId + ": usage: " + problem, null);
    }

    @Override
    public int exitStatus() {
        return 2;
    }
}
