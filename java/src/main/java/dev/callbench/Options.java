package dev.callbench;

import java.nio.file.Path;

/** The contract's options (docs/contract.md), parsed and range-checked once for every driver. */
public final class Options {
    public Path models = Path.of("models");
    /** Calls a round may take at most, and the calls of a standalone round. */
    public int calls = 1_000_000;
    public int warmup = 1000;
    /** Standalone runs only: rounds of N calls back to back. */
    public int repeats = 3;
    public int batch = 1;
    public int threads = 1;
    public Path outputs;
    public Path latencies;
    /** Take rounds from standard input instead of running {@link #repeats}. */
    public boolean serve;
    public boolean debug;

    /** Most calls a standalone run times one by one (contract: min(N, 100000)). */
    public static final int MAX_LATENCY_CALLS = 100_000;

    /**
     * Parses {@code args}; a bad option, a missing value or a value out of range
     * is a {@link UsageException} naming it.
     */
    public static Options parse(String driverId, String[] args) throws UsageException {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            String value = null;
            int eq = name.indexOf('=');
            if (name.startsWith("--") && eq > 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (name.equals("--debug") || name.equals("--serve")) {
                if (value != null) {
                    throw new UsageException(driverId, name + " takes no value");
                }
                o.debug |= name.equals("--debug");
                o.serve |= name.equals("--serve");
                continue;
            }
            if (!isKnown(name)) {
                throw new UsageException(driverId, "unknown option " + name);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException(driverId, name + " needs a value");
                }
                value = args[++i];
            }
            switch (name) {
                case "--models" -> o.models = Path.of(value);
                case "--calls" -> o.calls = atLeast(driverId, name, value, 1);
                case "--warmup" -> o.warmup = atLeast(driverId, name, value, 0);
                case "--repeats" -> o.repeats = atLeast(driverId, name, value, 1);
                case "--batch" -> o.batch = atLeast(driverId, name, value, 1);
                case "--threads" -> o.threads = atLeast(driverId, name, value, 1);
                case "--outputs" -> o.outputs = Path.of(value);
                case "--latencies" -> o.latencies = Path.of(value);
                default -> throw new AssertionError(name);
            }
        }
        // Java arrays are indexed by int: the run's inputs must fit one array.
        if ((long) o.calls * o.batch * Inputs.WIDTH > Integer.MAX_VALUE - 8) {
            throw new UsageException(driverId, "--calls x --batch is too large for one run");
        }
        return o;
    }

    /** Samples the run reads: N calls of B samples each. */
    public int samplesNeeded() {
        return calls * batch;
    }

    /** How many calls a standalone run's latency pass times one by one. */
    public int latencyCalls() {
        return Math.min(calls, MAX_LATENCY_CALLS);
    }

    private static boolean isKnown(String name) {
        return switch (name) {
            case "--models", "--calls", "--warmup", "--repeats", "--batch", "--threads",
                    "--outputs", "--latencies" -> true;
            default -> false;
        };
    }

    private static int atLeast(String driverId, String name, String value, int min)
            throws UsageException {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(driverId, name + " needs an integer, got '" + value + "'");
        }
        if (n < min) {
            throw new UsageException(driverId, name + " must be >= " + min + ", got " + n);
        }
        return n;
    }
}
