package dev.callbench;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Wires the kit for one driver: {@link Options}, the timed load of its
 * {@link TensorModel}, its inputs ({@link Inputs}, by the model's signature),
 * warm-up ({@link Rounds}), then {@link Serve}
 * (commands from standard input with {@code --serve}, else the standalone
 * script) ending in the {@link Result} line. Every driver's {@code main}
 * delegates here. Failures surface as {@link CallbenchException}s whose
 * message is the contract's stderr line.
 */
public final class DriverMain {
    private DriverMain() {}

    public static void run(Driver driver, String[] args) throws CallbenchException {
        run(driver, args, System.in, System.out);
    }

    /**
     * {@link #run(Driver, String[])} as a process's {@code main}, for a driver
     * started in its own JVM rather than hosted by JPype (java-onnxruntime-ffm
     * needs a newer JDK than the host's): a failure prints its one line, with
     * the stack trace after {@code --debug}, and exits with its status; an
     * unexpected one exits 1.
     */
    public static void exit(Driver driver, String[] args) {
        int status = 0;
        try {
            run(driver, args);
        } catch (CallbenchException e) {
            trace(e, args);
            System.err.println(e.getMessage());
            status = e.exitStatus();
        } catch (Exception | LinkageError e) {
            trace(e, args);
            System.err.println(driver.id() + ": error: " + CallbenchException.oneLine(e));
            status = 1;
        }
        System.out.flush();
        // Skip shutdown hooks and non-daemon runtime threads, as the JPype host does.
        Runtime.getRuntime().halt(status);
    }

    private static void trace(Throwable e, String[] args) {
        if (java.util.Arrays.asList(args).contains("--debug")) {
            e.printStackTrace();
        }
    }

    /** {@link #run(Driver, String[])} with the dialogue's streams given (tests). */
    public static void run(Driver driver, String[] args, InputStream in, PrintStream out)
            throws CallbenchException {
        try {
            Options options = Options.parse(args);
            if (options.help) {
                out.println(Options.helpLine(driver.id()));
                out.flush();
                return;
            }
            serve(driver, options, in, out);
        } catch (CallbenchException e) {
            // The kit's parts do not know the driver; it is named once, here.
            throw e.withDriver(driver.id());
        }
    }

    private static void serve(Driver driver, Options options, InputStream in, PrintStream out)
            throws CallbenchException {
        Path modelPath = driver.modelPath(options);
        if (!Files.isRegularFile(modelPath)) {
            throw new DataException(modelPath, "missing; run `nox -s export` first");
        }
        if (options.callers > 1 && !(driver instanceof CallersDriver)) {
            throw new UsageException(ONE_CALLER);
        }
        if (options.maxDelayUs != null && options.callers > 1) { // contract 7: one gatherer
            throw new UsageException(Batcher.ONE_GATHERER);
        }
        progress("loading");
        long loadStart = System.nanoTime();
        TensorModel model = load(driver, modelPath, options);
        long loadNs = System.nanoTime() - loadStart;
        try (model) {
            if (options.gathered && !model.takesGathered()) { // said before the inputs are read
                throw new UsageException(Batcher.FIXED_BATCH);
            }
            // Read after loading: which files hold the samples, and their sizes, are the model's to say.
            Signature signature = model.signature();
            List<Tensors.Samples> inputs = Inputs.read(options.models, signature);
            Inputs.requireSamples(options,
                    options.models.resolve(Tensors.tensorFile(Tensors.INPUTS_STEM, 0,
                            signature.inputs().get(0).dtype())),
                    inputs.get(0).count());
            if (options.callers > 1) {
                try (Callers callers = new Callers((TakesCallers) model, modelPath, inputs, options)) {
                    progress("warm-up");
                    Warmup warmup = callers.warmUp(options.warmup, options.warmupTime);
                    measure(driver, options, model, callers, callers.notes(), loadNs, warmup, in, out);
                }
                return;
            }
            Rounds rounds = new Rounds(model, modelPath, inputs, options.calls, options.batch);
            progress("warm-up");
            Warmup warmup = rounds.warmUp(options.warmup, options.warmupTime);
            Runner runner = options.maxDelayUs == null ? rounds // contract 7: paced rounds through the batcher
                    : new Batcher(rounds, model, modelPath, inputs, options.calls, options.batch,
                            options.maxDelayUs, options.gathered);
            measure(driver, options, model, runner, model.notes(), loadNs, warmup, in, out);
        }
    }

    /** What a driver of one caller answers to {@code --callers N > 1} (contract 4). */
    public static final String ONE_CALLER = "--callers N > 1 is not supported: this driver runs one caller";

    /** The dialogue or the standalone script over the warmed-up rounds, then the outputs and the result line. */
    private static void measure(Driver driver, Options options, TensorModel model, Runner rounds,
            java.util.Map<String, Object> notes, long loadNs, Warmup warmup, InputStream in, PrintStream out)
            throws CallbenchException {
        Serve serve = new Serve(options, rounds, out);
        if (options.serve) {
            serve.serve(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), loadNs, warmup);
        } else {
            serve.runScript();
        }
        if (options.outputs != null) {
            rounds.writeOutputs(options.outputs);
        }
        out.println(Result.line(driver.id(), options, model.runtimeVersion(), loadNs, rounds.done(), notes));
        out.flush();
    }

    /** The contract's optional {@code progress: <stage>} line on stderr. */
    private static void progress(String stage) {
        System.err.println("progress: " + stage);
        System.err.flush();
    }

    private static TensorModel load(Driver driver, Path modelPath, Options options)
            throws DataException {
        try {
            return driver.load(modelPath, options);
        } catch (DataException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            // LinkageError: a runtime's native library that fails to load is a load failure too.
            throw new DataException(modelPath, "cannot be loaded: " + CallbenchException.oneLine(e), e);
        }
    }
}
