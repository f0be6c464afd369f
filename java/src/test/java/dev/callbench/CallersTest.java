package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract 4's callers through DriverMain: a model of y = x0 + x1, each caller its own. */
class CallersTest {
    @TempDir
    Path models;

    /** A CallersDriver of sum models; caller {@code failing} fails every call (-1: none). */
    private static final class SumCallers implements CallersDriver {
        private final int failing;
        boolean loaded;

        SumCallers(int failing) {
            this.failing = failing;
        }

        @Override
        public String id() {
            return "java-sum-callers";
        }

        @Override
        public String artifact() {
            return "inputs.f32";
        }

        @Override
        public TakesCallers load(Path model, Options options) {
            loaded = true;
            return new Loaded(options.batch);
        }

        private static class Sum implements TensorModel {
            private final int batch;
            private final boolean fails;

            Sum(int batch, boolean fails) {
                this.batch = batch;
                this.fails = fails;
            }

            @Override
            public Signature signature() {
                return new Signature(List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
                        List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));
            }

            @Override
            public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) {
                if (fails) {
                    throw new IllegalStateException("failed on purpose");
                }
                ByteBuffer x = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer y = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                for (int s = first; s < first + batch; s++) {
                    y.putFloat(4 * s, x.getFloat(8 * s) + x.getFloat(8 * s + 4));
                }
            }

            @Override
            public String runtimeVersion() {
                return "1.0";
            }

            @Override
            public void close() {}
        }

        private final class Loaded extends Sum implements TakesCallers {
            private int made;

            Loaded(int batch) {
                super(batch, false);
            }

            @Override
            public TensorModel caller() {
                return new Sum(1, made++ == failing);
            }

            @Override
            public Holding holding() {
                return new Holding(Holding.PER_CALLER, "a Sum each");
            }
        }
    }

    private List<String> run(Driver driver, String stdin, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--models", models.toString()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        DriverMain.run(driver, args.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out);
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void eachCallerTakesItsOwnSamplesAndEveryCallersOutputsAreWritten() throws Exception {
        // 5 samples (x0 = i, x1 = 0); 3 callers of 2 calls: caller c's call i is (2c + i) mod 5.
        TestFiles.writeFloats(models.resolve("inputs.f32"), 0, 0, 1, 0, 2, 0, 3, 0, 4, 0);
        Path outputs = models.resolve("out.f32");
        List<String> lines = run(new SumCallers(-1), "round 2\nend\n", "--serve", "--calls", "2",
                "--callers", "3", "--warmup", "4", "--outputs", outputs.toString());
        JsonObject round = JsonParser.parseString(lines.get(1)).getAsJsonObject();
        assertEquals(3, round.get("callers").getAsInt());
        assertEquals(3, round.getAsJsonArray("caller_ns").size());
        long ns = round.get("ns").getAsLong();
        round.getAsJsonArray("caller_ns").forEach(c -> assertTrue(c.getAsLong() <= ns));
        JsonObject result = JsonParser.parseString(lines.get(2)).getAsJsonObject();
        assertEquals(3, result.get("callers").getAsInt());
        assertEquals("per caller", result.getAsJsonObject("notes").get("callers_hold").getAsString());
        ByteBuffer written = ByteBuffer.wrap(Files.readAllBytes(outputs)).order(ByteOrder.LITTLE_ENDIAN);
        float[] got = new float[written.remaining() / 4];
        written.asFloatBuffer().get(got);
        assertArrayEquals(new float[] {0, 1, 2, 3, 4, 0}, got);
    }

    @Test
    void pacedCallersPutEachSlotsLastArrivalInTheOutputs() throws Exception {
        // 5 samples, --calls 4, 3 callers serving 7 arrivals at once: arrival j in slot j mod 4
        // with the samples of call j mod 5; the outputs are the 4 slots in order.
        TestFiles.writeFloats(models.resolve("inputs.f32"), 0, 0, 1, 0, 2, 0, 3, 0, 4, 0);
        Path schedule = models.resolve("arrivals.i64");
        Files.write(schedule, new byte[7 * 8]);
        Path outputs = models.resolve("out.f32");
        Path latencies = models.resolve("lat.i64");
        List<String> lines = run(new SumCallers(-1), "paced " + schedule + "\nend\n", "--serve",
                "--calls", "4", "--callers", "3", "--warmup", "2", "--outputs", outputs.toString(),
                "--latencies", latencies.toString());
        JsonObject paced = JsonParser.parseString(lines.get(1)).getAsJsonObject();
        assertEquals("paced", paced.get("event").getAsString());
        assertEquals(7, paced.get("calls").getAsInt());
        assertEquals(4, paced.get("slots").getAsInt());
        assertEquals(3, paced.get("callers").getAsInt());
        long served = 0;
        for (var n : paced.getAsJsonArray("caller_calls")) {
            served += n.getAsLong();
        }
        assertEquals(7, served);
        assertTrue(paced.get("ready_ns").getAsLong() < paced.get("start_ns").getAsLong());
        assertEquals(3 * 7 * 8, Files.size(latencies));
        ByteBuffer written = ByteBuffer.wrap(Files.readAllBytes(outputs)).order(ByteOrder.LITTLE_ENDIAN);
        float[] got = new float[written.remaining() / 4];
        written.asFloatBuffer().get(got);
        assertArrayEquals(new float[] {0, 1, 2, 3}, got);
    }

    @Test
    void aFailingCallerIsOneLineNamingIt() throws Exception {
        TestFiles.writeFloats(models.resolve("inputs.f32"), 1, 2, 3, 4);
        CallerFailedException e = assertThrows(CallerFailedException.class, () -> run(new SumCallers(1),
                "round 2\n", "--serve", "--calls", "2", "--callers", "3", "--warmup", "0"));
        assertEquals("java-sum-callers: error: caller 1: " + models.resolve("inputs.f32")
                + ": failed while running: failed on purpose", e.getMessage());
        assertEquals(1, e.exitStatus());
    }

    @Test
    void aDriverOfOneCallerRefusesMoreBeforeLoading() throws Exception {
        TestFiles.writeFloats(models.resolve("inputs.f32"), 1, 2, 3, 4);
        Files.writeString(models.resolve("sum.model"), "sum\n");
        SumDriver one = new SumDriver();
        UsageException e = assertThrows(UsageException.class, () -> run(one, "", "--callers", "2"));
        assertEquals("java-sum: usage: --callers N > 1 is not supported: this driver runs one caller",
                e.getMessage());
        assertFalse(one.closed); // never loaded, so never closed
    }
}
