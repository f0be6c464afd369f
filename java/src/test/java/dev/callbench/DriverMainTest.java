package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared runner end to end with a driver whose "model" computes y = x1 + x2. */
class DriverMainTest {
    @TempDir
    Path models;

    private final List<Integer> firsts = new ArrayList<>();
    private boolean closed;

    /** A fake runtime: its model file must read "sum"; it records each call's first sample. */
    private final class SumDriver implements Driver {
        @Override
        public String id() {
            return "java-sum";
        }

        @Override
        public String runtime() {
            return "sum";
        }

        @Override
        public String artifact() {
            return "sum.model";
        }

        @Override
        public String runtimeVersion() {
            return "1.0";
        }

        @Override
        public Inference load(Path model, Options options) throws Exception {
            String text = Files.readString(model).strip();
            if (!text.equals("sum")) {
                throw new IllegalArgumentException("bad magic '" + text + "'\nsecond line");
            }
            int batch = options.batch;
            return new Inference() {
                @Override
                public void call(float[] inputs, int first, float[] outputs) {
                    firsts.add(first);
                    for (int i = first; i < first + batch; i++) {
                        outputs[i] = inputs[2 * i] + inputs[2 * i + 1];
                    }
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }
    }

    @BeforeEach
    void artifacts() throws Exception {
        TestFiles.writeFloats(models.resolve("inputs.f32"), TestFiles.samples(10));
        Files.writeString(models.resolve("sum.model"), "sum\n");
    }

    private String run(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--models", models.toString()));
        args.addAll(List.of(extra));
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DriverMain.run(new SumDriver(), args.toArray(String[]::new));
        } finally {
            System.setOut(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsTheProtocolAndWritesOutputsInCallOrder() throws Exception {
        Path outputs = models.resolve("out.f32");
        Path latencies = models.resolve("lat.i64");
        String stdout = run("--calls", "4", "--batch", "2", "--warmup", "5", "--repeats", "2",
                "--outputs", outputs.toString(), "--latencies", latencies.toString());

        // x1 + x2 = i - 2i = -i for samples 0..7.
        assertArrayEquals(new float[] {0f, -1f, -2f, -3f, -4f, -5f, -6f, -7f},
                TestFiles.readFloats(outputs));
        // Warm-up call j reads call (j mod 4); then 2 repeats of 4 calls; then 4 timed singly.
        List<Integer> expected = new ArrayList<>(List.of(0, 2, 4, 6, 0));
        for (int pass = 0; pass < 3; pass++) {
            expected.addAll(List.of(0, 2, 4, 6));
        }
        assertEquals(expected, firsts);
        long[] each = TestFiles.readLongs(latencies);
        assertEquals(4, each.length);
        for (long ns : each) {
            assertTrue(ns >= 0, "latency " + ns);
        }
        assertTrue(closed, "the model was closed");

        String[] lines = stdout.strip().split("\\R");
        String json = lines[lines.length - 1];
        assertTrue(json.startsWith("{\"driver\": \"java-sum\", \"language\": \"Java\", "
                + "\"runtime\": \"sum\", \"runtime_version\": \"1.0\", \"artifact\": \"sum.model\", "
                + "\"calls\": 4, \"batch\": 2, \"threads\": 1, \"warmup\": 5, \"repeats\": 2, "
                + "\"repeat_ns\": ["), json);
        assertTrue(json.contains("\"load_ns\": "), json);
        assertTrue(json.contains("\"notes\": {\"jvm\": "), json);
        assertTrue(json.contains("\"repeat_thread_cpu_ns\": ["), json);
    }

    @Test
    void tooManySamplesIsAUsageError() {
        UsageException e = assertThrows(UsageException.class, () -> run("--calls", "6", "--batch", "2"));
        assertEquals("java-sum: usage: --calls 6 x --batch 2 needs 12 samples, "
                + models.resolve("inputs.f32") + " holds 10", e.getMessage());
        assertTrue(firsts.isEmpty());
    }

    @Test
    void badOptionIsAUsageError() {
        UsageException e = assertThrows(UsageException.class, () -> run("--repeats", "zero"));
        assertEquals("java-sum: usage: --repeats needs an integer, got 'zero'", e.getMessage());
    }

    @Test
    void wrongSizeInputsNameTheFile() throws Exception {
        Files.write(models.resolve("inputs.f32"), new byte[20]);
        DataException e = assertThrows(DataException.class, () -> run("--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("inputs.f32")
                + ": 20 bytes is not a whole number of samples (8 bytes each)", e.getMessage());
    }

    @Test
    void nanInputsNameTheFileAndSample() throws Exception {
        float[] values = TestFiles.samples(10);
        values[7] = Float.NaN;
        TestFiles.writeFloats(models.resolve("inputs.f32"), values);
        DataException e = assertThrows(DataException.class, () -> run("--calls", "5"));
        assertEquals("java-sum: error: " + models.resolve("inputs.f32") + ": sample 3 is NaN or Inf",
                e.getMessage());
    }

    @Test
    void missingModelNamesTheFile() throws Exception {
        Files.delete(models.resolve("sum.model"));
        DataException e = assertThrows(DataException.class, () -> run("--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("sum.model")
                + ": missing; run `nox -s export` first", e.getMessage());
    }

    @Test
    void modelThatFailsToLoadGivesOneLineNamingIt() throws Exception {
        Files.writeString(models.resolve("sum.model"), "garbage");
        DataException e = assertThrows(DataException.class, () -> run("--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("sum.model")
                + ": cannot be loaded: bad magic 'garbage'", e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals(1, e.exitStatus());
    }

    @Test
    void oneLineKeepsTheFirstNonBlankLine() {
        assertEquals("boom", DriverMain.oneLine(new RuntimeException("\n  boom  \nmore")));
        assertEquals("IllegalStateException", DriverMain.oneLine(new IllegalStateException()));
    }
}
