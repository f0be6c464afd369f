package dev.callbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs one driver through the contract: parse options, check and read the
 * inputs, load the model (timed), warm up, time the repeats, write outputs and
 * latencies, and print the record's JSON line. Every driver's {@code main}
 * delegates here, so the protocol exists once. Failures surface as
 * {@link CallbenchException}s whose message is the contract's stderr line.
 */
public final class DriverMain {
    private DriverMain() {}

    public static void run(Driver driver, String[] args) throws CallbenchException {
        String id = driver.id();
        Options options = Options.parse(id, args);
        Path inputsPath = options.models.resolve(SampleFile.NAME);
        Path modelPath = options.models.resolve(driver.artifact());

        int needed = options.samplesNeeded();
        float[] inputs;
        try {
            long available = SampleFile.countSamples(inputsPath);
            if (available < needed) {
                throw new UsageException(id, "--calls " + options.calls + " x --batch " + options.batch
                        + " needs " + needed + " samples, " + inputsPath + " holds " + available);
            }
            inputs = SampleFile.read(inputsPath, needed);
        } catch (DataException e) {
            throw e.withDriver(id);
        }
        if (!Files.isRegularFile(modelPath)) {
            throw new DataException(modelPath, "missing; run `nox -s export` first").withDriver(id);
        }

        long loadStart = System.nanoTime();
        Inference model = load(driver, modelPath, options);
        long loadNs = System.nanoTime() - loadStart;

        float[] outputs = new float[needed];
        TimingLoop.Repeats repeats;
        long[] latencies = null;
        try (model) {
            TimingLoop.warmup(model, inputs, outputs, options.calls, options.batch, options.warmup);
            repeats = TimingLoop.repeats(model, inputs, outputs, options.calls, options.batch,
                    options.repeats);
            if (options.outputs != null) {
                // Written before the latency pass so the file holds the last repeat.
                ResultFiles.writeFloats(options.outputs, outputs);
            }
            if (options.latencies != null) {
                float[] scratch = new float[needed];
                latencies = TimingLoop.latencies(model, inputs, scratch, options.latencyCalls(),
                        options.batch);
            }
        } catch (DataException e) {
            throw e.withDriver(id);
        } catch (Exception e) {
            throw new DataException(modelPath, "failed while running: " + oneLine(e), e)
                    .withDriver(id);
        }
        if (latencies != null) {
            try {
                ResultFiles.writeLongs(options.latencies, latencies);
            } catch (DataException e) {
                throw e.withDriver(id);
            }
        }

        Map<String, Object> record = new LinkedHashMap<>();
        record.put("driver", id);
        record.put("language", "Java");
        record.put("runtime", driver.runtime());
        record.put("runtime_version", driver.runtimeVersion());
        record.put("artifact", driver.artifact());
        record.put("calls", options.calls);
        record.put("batch", options.batch);
        record.put("threads", options.threads);
        record.put("warmup", options.warmup);
        record.put("repeats", options.repeats);
        record.put("repeat_ns", repeats.wallNs());
        record.put("load_ns", loadNs);
        // The harness keeps extra detail under "notes".
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        // CPU time of the calling thread per repeat: with --threads 1 the runtimes
        // compute on this thread, so it is the work without other processes' share.
        notes.put("repeat_thread_cpu_ns", repeats.cpuNs());
        notes.putAll(driver.notes());
        record.put("notes", notes);
        System.out.println(Json.object(record));
        System.out.flush();
    }

    private static Inference load(Driver driver, Path modelPath, Options options)
            throws CallbenchException {
        try {
            return driver.load(modelPath, options);
        } catch (DataException e) {
            throw e.withDriver(driver.id());
        } catch (Exception | LinkageError e) {
            // LinkageError: a runtime's native library that fails to load is a load failure too.
            throw new DataException(modelPath, "cannot be loaded: " + oneLine(e), e)
                    .withDriver(driver.id());
        }
    }

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
