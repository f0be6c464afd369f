package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract 7's batcher over a fake runtime of several tensors, at batch 2. */
class BatcherTest {
    @TempDir
    Path dir;

    private final SumTensorDriver driver = new SumTensorDriver();

    /** The batcher at batch 2 over {@code calls} x 2 samples a = (i, 10i): sample i's sum is 11i. */
    private Batcher batcher(int calls, long maxDelayUs) {
        TensorModel model = driver.model(2);
        List<Tensors.Samples> inputs = List.of(new Tensors.Samples(
                ByteBuffer.wrap(SumTensorDriver.samples(2 * calls)).order(ByteOrder.LITTLE_ENDIAN), 2 * calls));
        Rounds rounds = new Rounds(model, dir.resolve("sum.model"), inputs, calls, 2);
        return new Batcher(rounds, model, dir.resolve("sum.model"), inputs, calls, 2, maxDelayUs, false);
    }

    /** The sums (output 's') that {@code runner} writes as its outputs. */
    private long[] sums(Runner runner, int samples) throws Exception {
        Path out = dir.resolve("out.bin");
        runner.writeOutputs(out);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        long[] sums = new long[samples];
        bytes.asLongBuffer().get(sums);
        return sums;
    }

    @Test
    void aBurstOfBIsOneCallAndEachArrivalItsOwnSample() throws Exception {
        // Three bursts of two, 1 ms apart, then one alone: a full call does not wait D (a
        // second); the last, alone, waits it out (it cannot know none follows).
        Batcher batcher = batcher(3, 1_000_000);
        driver.firsts.clear();
        Pacing pacing = batcher.paced(new long[] {0, 0, 1_000_000, 1_000_000, 2_000_000, 2_000_000, 3_000_000}, null);
        Map<String, Object> answer = pacing.answer();
        assertArrayEquals(new long[] {1, 3}, (long[]) answer.get("batch_sizes"));
        assertArrayEquals(new long[] {7}, (long[]) answer.get("caller_calls"));
        assertEquals(6L, answer.get("slots"));
        assertEquals(4, driver.firsts.size());
        long[] times = pacing.times();
        assertEquals(times[7], times[8]); // the first burst's two share their call's start
        assertTrue(times[7 + 6] >= 1_000_000_000L, "the last arrival waited out D: " + times[13]);
        // Arrival 6 took sample 0 (6 mod 6): its sum is at slot 0.
        assertArrayEquals(new long[] {0, 11, 22, 33, 44, 55}, sums(batcher, 6));
    }

    @Test
    void aGatheredCallTakesOnlyTheArrivalsItGathered() throws Exception {
        TensorModel fixed = driver.model(2);
        List<Integer> sizes = new java.util.ArrayList<>();
        TensorModel gathering = new TensorModel() {
            @Override
            public Signature signature() {
                return fixed.signature();
            }

            @Override
            public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) throws Exception {
                fixed.call(inputs, first, outputs);
            }

            @Override
            public boolean takesGathered() {
                return true;
            }

            @Override
            public void callGathered(ByteBuffer[] inputs, ByteBuffer[] outputs, int samples) {
                sizes.add(samples);
                driver.compute(inputs, 0, samples, outputs);
            }

            @Override
            public String runtimeVersion() {
                return "1.0";
            }

            @Override
            public void close() {}
        };
        List<Tensors.Samples> inputs = List.of(new Tensors.Samples(
                ByteBuffer.wrap(SumTensorDriver.samples(6)).order(ByteOrder.LITTLE_ENDIAN), 6));
        Rounds rounds = new Rounds(gathering, dir.resolve("sum.model"), inputs, 3, 2);
        Batcher batcher = new Batcher(rounds, gathering, dir.resolve("sum.model"), inputs, 3, 2, 0, true);
        // A burst of two, then one alone: calls of 2 and 1, not two of B = 2.
        batcher.paced(new long[] {0, 0, 5_000_000}, null);
        assertEquals(List.of(2, 1), sizes);
        assertArrayEquals(new long[] {0, 11, 22}, sums(batcher, 3));
    }

    @Test
    void aRoundAfterThePacedOneIsTheModelsOwn() throws Exception {
        Batcher batcher = batcher(2, 0);
        batcher.paced(new long[] {0, 5, 10}, null);
        batcher.round(2);
        assertArrayEquals(new long[] {0, 11, 22, 33}, sums(batcher, 4));
    }
}
