package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
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

/** The kit wired end to end by DriverMain, with a driver whose "model" computes y = x1 + x2. */
class DriverMainTest {
    @TempDir
    Path models;

    private final SumDriver driver = new SumDriver();

    @BeforeEach
    void artifacts() throws Exception {
        TestFiles.writeFloats(models.resolve("inputs.f32"), TestFiles.samples(10));
        Files.writeString(models.resolve("sum.model"), "sum\n");
    }

    /** Runs the driver with {@code stdin} as its commands; returns stdout's lines. */
    private List<String> run(String stdin, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--models", models.toString()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        DriverMain.run(driver, args.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out);
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void standaloneRunsTheScriptAndWritesOutputsInCallOrder() throws Exception {
        Path outputs = models.resolve("out.f32");
        Path latencies = models.resolve("lat.i64");
        List<String> lines = run("round 1\n", "--calls", "4", "--batch", "2", "--warmup", "5",
                "--repeats", "2", "--outputs", outputs.toString(), "--latencies", latencies.toString());

        // x1 + x2 = i - 2i = -i for samples 0..7.
        assertArrayEquals(new float[] {0f, -1f, -2f, -3f, -4f, -5f, -6f, -7f},
                TestFiles.readFloats(outputs));
        // Warm-up call j reads call (j mod 4); then 2 rounds of 4 calls; then 4 timed singly.
        // Standard input is not read without --serve.
        List<Integer> expected = new ArrayList<>(List.of(0, 2, 4, 6, 0));
        for (int pass = 0; pass < 3; pass++) {
            expected.addAll(List.of(0, 2, 4, 6));
        }
        assertEquals(expected, driver.firsts);
        long[] each = TestFiles.readLongs(latencies);
        assertEquals(4, each.length);
        for (long ns : each) {
            assertTrue(ns >= 0, "latency " + ns);
        }
        assertTrue(driver.closed, "the model was closed");

        // A standalone run prints its result line alone, as every kit does.
        assertEquals(1, lines.size(), lines.toString());
        String result = lines.get(0);
        assertTrue(result.startsWith("{\"driver\":\"java-sum\",\"calls\":4,\"batch\":2,"
                + "\"threads\":1,\"runtime_version\":\"1.0\",\"load_ns\":"), result);
        assertTrue(result.contains(",\"peak_rss_bytes\":"), result);
        assertTrue(result.contains(",\"rounds\":[{\"calls\":4,\"ns\":"), result);
        assertEquals(2, result.split("\\{\"calls\":4,").length - 1, result);
        assertTrue(result.contains("\"notes\":{\"jvm\":"), result);
        assertTrue(result.matches(".*,\"call\":\"x1 \\+ x2\",\"jvm_heap_committed_bytes\":\\d+,"
                + "\"jvm_heap_live_bytes\":\\d+}}"), result);
        for (String gone : List.of("language", "runtime\"", "artifact", "warmup", "repeats", "repeat_ns")) {
            assertFalse(result.contains("\"" + gone), gone + " in " + result);
        }
    }

    @Test
    void serveAnswersEachCommandAndKeepsTheLastRoundsOutputs() throws Exception {
        Path outputs = models.resolve("out.f32");
        Path latencies = models.resolve("lat.i64");
        List<String> lines = run("round 4\nround 2\nlatencies 3\nend\n", "--serve", "--calls", "4",
                "--warmup", "0", "--outputs", outputs.toString(), "--latencies", latencies.toString());

        assertEquals(List.of(0, 1, 2, 3, 0, 1, 0, 1, 2), driver.firsts);
        // The last round had 2 calls of 1 sample; the latency pass did not touch the outputs.
        assertArrayEquals(new float[] {0f, -1f}, TestFiles.readFloats(outputs));
        assertEquals(3, TestFiles.readLongs(latencies).length);
        assertEquals(5, lines.size(), lines.toString());
        assertTrue(lines.get(1).startsWith("{\"event\":\"round\",\"calls\":4,\"ns\":"), lines.get(1));
        assertTrue(lines.get(1).contains(",\"cpu_ns\":"), lines.get(1));
        assertTrue(lines.get(2).startsWith("{\"event\":\"round\",\"calls\":2,\"ns\":"), lines.get(2));
        assertEquals("{\"event\":\"latencies\",\"calls\":3}", lines.get(3));
        assertTrue(lines.get(4).contains("\"rounds\":[{\"calls\":4,\"ns\":"), lines.get(4));
        assertTrue(lines.get(4).contains("},{\"calls\":2,\"ns\":"), lines.get(4));
        assertTrue(driver.closed);
    }

    @Test
    void endOfInputEndsTheDialogue() throws Exception {
        List<String> lines = run("round 1\n", "--serve", "--calls", "4", "--warmup", "0");
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(2).startsWith("{\"driver\":\"java-sum\",\"calls\":4,"), lines.get(2));
    }

    @Test
    void endBeforeAnyRoundWritesNoOutputsAndNoRounds() throws Exception {
        Path outputs = models.resolve("out.f32");
        List<String> lines = run("end\n", "--serve", "--calls", "3", "--warmup", "0",
                "--outputs", outputs.toString());
        assertEquals(0, TestFiles.readFloats(outputs).length);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(1).contains("\"rounds\":[],"), lines.get(1));
    }

    @Test
    void roundOutOfRangeIsAUsageErrorAndClosesTheModel() {
        UsageException e = assertThrows(UsageException.class,
                () -> run("round 5\n", "--serve", "--calls", "4"));
        assertEquals("java-sum: usage: command 'round 5': K must be in 1..4 (--calls)", e.getMessage());
        assertEquals(2, e.exitStatus());
        assertTrue(driver.closed);
    }

    @Test
    void runtimeFailingInARoundIsADataErrorNamingTheModel() {
        driver.failure = new IllegalStateException("boom\nsecond line");
        DataException e = assertThrows(DataException.class,
                () -> run("round 1\n", "--serve", "--calls", "4", "--warmup", "0"));
        assertEquals("java-sum: error: " + models.resolve("sum.model")
                + ": failed while running: boom", e.getMessage());
        assertTrue(driver.closed);
    }

    @Test
    void tooManySamplesIsAUsageError() {
        UsageException e = assertThrows(UsageException.class, () -> run("", "--calls", "6", "--batch", "2"));
        assertEquals("java-sum: usage: --calls 6 x --batch 2 needs 12 samples, "
                + models.resolve("inputs.f32") + " holds 10", e.getMessage());
        assertTrue(driver.firsts.isEmpty());
    }

    @Test
    void badOptionIsAUsageError() {
        UsageException e = assertThrows(UsageException.class, () -> run("", "--repeats", "zero"));
        assertEquals("java-sum: usage: --repeats needs an integer, got 'zero'", e.getMessage());
    }

    @Test
    void wrongSizeInputsNameTheFile() throws Exception {
        Files.write(models.resolve("inputs.f32"), new byte[20]);
        DataException e = assertThrows(DataException.class, () -> run("", "--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("inputs.f32")
                + ": 20 bytes is not a whole number of samples of 'x' (8 bytes each)", e.getMessage());
    }

    @Test
    void nanInputsNameTheFileAndSample() throws Exception {
        float[] values = TestFiles.samples(10);
        values[7] = Float.NaN;
        TestFiles.writeFloats(models.resolve("inputs.f32"), values);
        DataException e = assertThrows(DataException.class, () -> run("", "--calls", "5"));
        assertEquals("java-sum: error: " + models.resolve("inputs.f32") + ": sample 3 of 'x' is NaN or Inf",
                e.getMessage());
    }

    @Test
    void missingModelNamesTheFile() throws Exception {
        Files.delete(models.resolve("sum.model"));
        DataException e = assertThrows(DataException.class, () -> run("", "--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("sum.model")
                + ": missing; run `nox -s export` first", e.getMessage());
    }

    @Test
    void modelThatFailsToLoadGivesOneLineNamingIt() throws Exception {
        Files.writeString(models.resolve("sum.model"), "garbage");
        DataException e = assertThrows(DataException.class, () -> run("", "--calls", "1"));
        assertEquals("java-sum: error: " + models.resolve("sum.model")
                + ": cannot be loaded: bad magic 'garbage'", e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals(1, e.exitStatus());
    }

    @Test
    void oneLineKeepsTheFirstNonBlankLine() {
        assertEquals("boom", CallbenchException.oneLine(new RuntimeException("\n  boom  \nmore")));
        assertEquals("IllegalStateException", CallbenchException.oneLine(new IllegalStateException()));
    }
}
