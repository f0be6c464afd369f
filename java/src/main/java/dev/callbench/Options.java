package dev.callbench;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The contract's options (docs/contract.md), parsed by picocli and
 * range-checked once for every driver, each problem worded as every kit words it.
 */
public final class Options {
    public Path models = Path.of("models");
    /** Calls a round may take at most, and the calls of a standalone round. */
    public int calls = 1_000_000;
    /** Untimed calls after loading, at most. */
    public int warmup = 10_000;
    /** Seconds the warm-up may take once it has made {@link Warmup#MIN_CALLS} calls (0: no time limit). */
    public double warmupTime = 2.0;
    /** Standalone runs only: rounds of N calls back to back. */
    public int repeats = 3;
    public int batch = 1;
    public int threads = 1;
    /** Contract 4: callers calling the model at once (a driver of one caller refuses more: {@link DriverMain}). */
    public int callers = 1;
    /**
     * Contract 7: a paced round served by a batcher of up to --batch arrivals a call, the oldest it holds
     * waiting at most this many µs (Triton's max_queue_delay_microseconds); null when not given.
     */
    public Integer maxDelayUs;
    /** ... each of its calls at the size it gathered, not padded to B (a {@link TensorModel#takesGathered} model's). */
    public boolean gathered;
    public Path outputs;
    public Path latencies;
    /** Take rounds from standard input instead of running {@link #repeats}. */
    public boolean serve;
    public boolean debug;
    /** --help: the entry prints {@link #helpLine} and returns, loading nothing. */
    public boolean help;

    /** Most calls a standalone run times one by one (contract: min(N, 100000)). */
    public static final int STANDALONE_LATENCY_CALLS = 100_000;

    /** The command line as given: picocli fills it; {@link #parse} checks each value. */
    @CommandLine.Command(name = "driver")
    private static final class Given {
        @CommandLine.Option(names = "--models") String models;
        @CommandLine.Option(names = "--calls") String calls;
        @CommandLine.Option(names = "--warmup") String warmup;
        @CommandLine.Option(names = "--warmup-time") String warmupTime;
        @CommandLine.Option(names = "--repeats") String repeats;
        @CommandLine.Option(names = "--batch") String batch;
        @CommandLine.Option(names = "--threads") String threads;
        @CommandLine.Option(names = "--callers") String callers;
        @CommandLine.Option(names = "--max-delay") String maxDelay;
        @CommandLine.Option(names = "--gathered") boolean gathered;
        @CommandLine.Option(names = "--outputs") String outputs;
        @CommandLine.Option(names = "--latencies") String latencies;
        @CommandLine.Option(names = "--serve") boolean serve;
        @CommandLine.Option(names = "--debug") boolean debug;
        @CommandLine.Option(names = "--help") boolean help;
    }

    /** What --help prints, the same in every kit (docs/contract.md, "The contract's words"). */
    public static String helpLine(String id) {
        return "usage: " + id + " [--models DIR] [--calls N] [--warmup W] [--warmup-time S] [--repeats R]"
                + " [--batch B] [--threads T] [--callers N] [--max-delay US] [--gathered] [--outputs PATH]"
                + " [--latencies PATH] [--serve] [--debug]";
    }

    /**
     * Parses {@code args}; a bad option, a missing value or a value out of range
     * is a {@link UsageException} naming it.
     */
    public static Options parse(String[] args) throws UsageException {
        Given given = new Given();
        CommandLine line = new CommandLine(given)
                .setOverwrittenOptionsAllowed(true) // the last of a repeated option wins
                .setAllowOptionsAsOptionParameters(true) // "--calls --serve" is a bad count, not a missing one
                .setExpandAtFiles(false);
        try {
            line.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            String first = e.getUnmatched().get(0);
            throw new UsageException("unknown option '" + first.split("=", 2)[0] + "'");
        } catch (CommandLine.MissingParameterException e) {
            throw new UsageException(nameOf(e.getMissing().get(0)) + " needs a value");
        } catch (ParameterException e) {
            ArgSpec spec = e.getArgSpec();
            boolean flag = spec != null && spec.type() == boolean.class;
            throw new UsageException(flag ? nameOf(spec) + " takes no value" : e.getMessage());
        }
        Options o = new Options();
        if (given.models != null) {
            o.models = Path.of(given.models);
        }
        o.calls = atLeast("--calls", given.calls, 1, o.calls);
        o.warmup = atLeast("--warmup", given.warmup, 0, o.warmup);
        o.warmupTime = seconds("--warmup-time", given.warmupTime, o.warmupTime);
        o.repeats = atLeast("--repeats", given.repeats, 1, o.repeats);
        o.batch = atLeast("--batch", given.batch, 1, o.batch);
        o.threads = atLeast("--threads", given.threads, 1, o.threads);
        o.callers = atLeast("--callers", given.callers, 1, o.callers);
        o.maxDelayUs = given.maxDelay == null ? null : atLeast("--max-delay", given.maxDelay, 0, 0);
        o.gathered = given.gathered;
        if (o.gathered && o.maxDelayUs == null) {
            throw new UsageException(Batcher.GATHERED_ALONE);
        }
        o.outputs = given.outputs == null ? null : Path.of(given.outputs);
        o.latencies = given.latencies == null ? null : Path.of(given.latencies);
        o.serve = given.serve;
        o.debug = given.debug;
        o.help = given.help;
        // Java arrays and buffers are indexed by int: the run's samples are counted by one.
        if ((long) o.calls * o.batch > Integer.MAX_VALUE - 8) {
            throw new UsageException("--calls x --batch is too large for one run");
        }
        return o;
    }

    /** Samples the run reads: N calls of B samples each. */
    public int samplesNeeded() {
        return calls * batch;
    }

    /** How many calls a standalone run's latency pass times one by one. */
    public int latencyCalls() {
        return Math.min(calls, STANDALONE_LATENCY_CALLS);
    }

    private static String nameOf(ArgSpec spec) {
        return spec instanceof OptionSpec option ? option.longestName() : spec.paramLabel();
    }

    /** {@code value} as seconds in 0..1e6, a plain decimal number; {@code absent} when not given. */
    private static double seconds(String name, String value, double absent) throws UsageException {
        if (value == null) {
            return absent;
        }
        double s;
        try {
            // Java's parser takes "Infinity", "NaN" and a trailing "d"; the contract's number does not.
            if (!value.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                throw new NumberFormatException(value);
            }
            s = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a number, got '" + value + "'");
        }
        if (!(s >= 0 && s <= 1e6)) {
            throw new UsageException(name + " must be in 0..1000000, got " + value);
        }
        return s;
    }

    /** {@code value} as an integer >= {@code min}; {@code absent} when the option was not given. */
    private static int atLeast(String name, String value, int min, int absent) throws UsageException {
        if (value == null) {
            return absent;
        }
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs an integer, got '" + value + "'");
        }
        if (n < min) {
            throw new UsageException(name + " must be >= " + min + ", got " + n);
        }
        return n;
    }
}
