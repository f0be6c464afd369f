package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputsTest {
    @TempDir
    Path dir;

    @Test
    void readsOurMlpsSamplesLittleEndian() throws Exception {
        TestFiles.writeFloats(dir.resolve("inputs.f32"), 1.5f, -2f, 3f, 4.25f, 5f, 6f);
        List<Tensors.Samples> read = Inputs.read(dir, SumDriver.SIGNATURE);
        assertEquals(1, read.size());
        assertEquals(3, read.get(0).count());
        assertEquals(4.25f, read.get(0).bytes().order(ByteOrder.LITTLE_ENDIAN).getFloat(12));
    }

    @Test
    void rejectsASizeThatIsNotWholeSamples() throws IOException {
        Path path = Files.write(dir.resolve("inputs.f32"), new byte[12]);
        DataException e = assertThrows(DataException.class, () -> Inputs.read(dir, SumDriver.SIGNATURE));
        assertTrue(e.getMessage().startsWith(path + ": 12 bytes is not a whole number of samples of 'x'"),
                e.getMessage());
        assertEquals(1, e.exitStatus());
    }

    @Test
    void rejectsAnEmptyFile() throws IOException {
        Files.write(dir.resolve("inputs.f32"), new byte[0]);
        assertThrows(DataException.class, () -> Inputs.read(dir, SumDriver.SIGNATURE));
    }

    @Test
    void tooFewSamplesForTheOptionsIsAUsageError() throws Exception {
        Options options = Options.parse(new String[] {"--calls", "3"});
        Inputs.requireSamples(options, Path.of("inputs.f32"), 3);
        UsageException e = assertThrows(UsageException.class,
                () -> Inputs.requireSamples(options, Path.of("inputs.f32"), 2));
        assertEquals("--calls 3 x --batch 1 needs 3 samples, inputs.f32 holds 2",
                e.withDriver("java-x").getMessage().replace("java-x: usage: ", ""));
    }

    @Test
    void rejectsNaNAndInfWithTheSampleIndex() throws IOException {
        Path nan = TestFiles.writeFloats(dir.resolve("inputs.f32"), 1f, 2f, 3f, Float.NaN);
        assertEquals(nan + ": sample 1 of 'x' is NaN or Inf",
                assertThrows(DataException.class, () -> Inputs.read(dir, SumDriver.SIGNATURE)).getMessage());
        TestFiles.writeFloats(dir.resolve("inputs.f32"), Float.NEGATIVE_INFINITY, 2f);
        assertEquals(nan + ": sample 0 of 'x' is NaN or Inf",
                assertThrows(DataException.class, () -> Inputs.read(dir, SumDriver.SIGNATURE)).getMessage());
    }

    @Test
    void missingFileSaysHowToMakeIt() {
        Path path = dir.resolve("inputs.f32");
        DataException e = assertThrows(DataException.class, () -> Inputs.read(dir, SumDriver.SIGNATURE));
        assertTrue(e.getMessage().startsWith(path + ": missing"), e.getMessage());
        assertEquals(path, e.path());
    }

    @Test
    void driverPrefixFollowsTheContract() {
        DataException e = new DataException(Path.of("m/x.onnx"), "broken").withDriver("java-y");
        assertEquals("java-y: error: m/x.onnx: broken", e.getMessage());
    }
}
