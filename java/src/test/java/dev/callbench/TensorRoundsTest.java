package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rounds of a model of several tensors (s = a0 + a1 int64, f = a0 float32), alone and wired by DriverMain. */
class TensorRoundsTest {
    @TempDir
    Path models;

    private final SumTensorDriver driver = new SumTensorDriver();

    private Rounds rounds(int samples, int maxCalls, int batch) {
        ByteBuffer bytes = ByteBuffer.wrap(SumTensorDriver.samples(samples)).order(ByteOrder.LITTLE_ENDIAN);
        return new Rounds(driver.model(batch), Path.of("m"),
                List.of(new Tensors.Samples(bytes, samples)), maxCalls, batch);
    }

    @Test
    void aRoundCallsEachBatchInOrderAndWarmUpWrapsAround() throws DataException {
        Rounds rounds = rounds(10, 4, 2);
        rounds.warmUp(6, 0);
        assertEquals(List.of(0, 2, 4, 6, 0, 2), driver.firsts);
        driver.firsts.clear();
        Round round = rounds.round(3);
        assertEquals(List.of(0, 2, 4), driver.firsts);
        assertEquals(3, round.calls());
        assertEquals(1, rounds.done().size());
    }

    @Test
    void tooFewSamplesForTheCallsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> rounds(7, 4, 2));
    }

    @Test
    void aCallThatStoresNothingLeavesThePoison() throws Exception {
        Rounds rounds = rounds(10, 4, 2);
        driver.storeNothing = true;
        rounds.round(1);
        Path out = models.resolve("out.bin");
        rounds.writeOutputs(out);
        ByteBuffer written = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(2 * 8 + 2 * 4, written.limit());
        assertEquals(Long.MIN_VALUE, written.getLong(0));
        assertEquals(Long.MIN_VALUE, written.getLong(8));
        assertTrue(Float.isNaN(written.getFloat(16)) && Float.isNaN(written.getFloat(20)));
    }

    @Test
    void theLatencyPassKeepsTheLastRoundsOutputs() throws Exception {
        Rounds rounds = rounds(10, 4, 2);
        rounds.round(2);
        driver.firsts.clear();
        assertEquals(3, rounds.latencies(3).length);
        assertEquals(List.of(0, 2, 4), driver.firsts);
        Path out = models.resolve("out.bin");
        rounds.writeOutputs(out);
        assertEquals(4 * 8 + 4 * 4, Files.size(out));
    }

    @Test
    void driverMainRunsATensorModelAndWritesEachOutputAfterTheOther() throws Exception {
        Files.write(models.resolve("inputs.i64"), SumTensorDriver.samples(10));
        Files.writeString(models.resolve("sum.model"), "sum\n");
        Path outputs = models.resolve("out.bin");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        DriverMain.run(driver, new String[] {"--models", models.toString(), "--calls", "4", "--batch",
                "2", "--warmup", "3", "--repeats", "2", "--outputs", outputs.toString()},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(captured, true, StandardCharsets.UTF_8));

        ByteBuffer written = ByteBuffer.wrap(Files.readAllBytes(outputs)).order(ByteOrder.LITTLE_ENDIAN);
        long[] sums = new long[8];
        written.asLongBuffer().get(sums);
        assertArrayEquals(new long[] {0, 11, 22, 33, 44, 55, 66, 77}, sums);
        float[] firsts = new float[8];
        written.position(64);
        written.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(firsts);
        assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5, 6, 7}, firsts);
        assertTrue(driver.closed, "the model was closed");
        String result = captured.toString(StandardCharsets.UTF_8).lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(result.startsWith("{\"driver\":\"java-sum-tensors\",\"calls\":4,\"batch\":2"), result);
    }

    @Test
    void driverMainNamesAMissingInputFileOfTheSignature() throws Exception {
        Files.writeString(models.resolve("sum.model"), "sum\n");
        CallbenchException e = assertThrows(CallbenchException.class,
                () -> DriverMain.run(driver, new String[] {"--models", models.toString()},
                        new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().startsWith("java-sum-tensors: error: " + models.resolve("inputs.i64")
                + ": missing"), e.getMessage());
        assertTrue(driver.closed, "the model was closed");
    }

    @Test
    void tooFewSamplesForTheOptionsIsAUsageError() throws Exception {
        Files.write(models.resolve("inputs.i64"), SumTensorDriver.samples(3));
        Files.writeString(models.resolve("sum.model"), "sum\n");
        assertThrows(UsageException.class,
                () -> DriverMain.run(driver, new String[] {"--models", models.toString(), "--calls", "4"},
                        new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream())));
    }
}
