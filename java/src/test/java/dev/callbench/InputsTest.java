package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputsTest {
    @TempDir
    Path dir;

    @Test
    void readsTheFirstSamplesLittleEndian() throws Exception {
        Path path = TestFiles.writeFloats(dir.resolve("inputs.f32"), 1.5f, -2f, 3f, 4.25f, 5f, 6f);
        assertEquals(3, Inputs.countSamples(path));
        assertArrayEquals(new float[] {1.5f, -2f, 3f, 4.25f}, Inputs.read(path, 2));
    }

    @Test
    void rejectsASizeThatIsNotWholeSamples() throws IOException {
        Path path = Files.write(dir.resolve("inputs.f32"), new byte[12]);
        DataException e = assertThrows(DataException.class, () -> Inputs.read(path, 1));
        assertEquals(path + ": 12 bytes is not a whole number of samples (8 bytes each)",
                e.getMessage());
        assertEquals(1, e.exitStatus());
    }

    @Test
    void rejectsAnEmptyFile() throws IOException {
        Path path = Files.write(dir.resolve("inputs.f32"), new byte[0]);
        assertThrows(DataException.class, () -> Inputs.countSamples(path));
    }

    @Test
    void rejectsTooFewSamples() throws IOException {
        Path path = TestFiles.writeFloats(dir.resolve("inputs.f32"), 1f, 2f);
        DataException e = assertThrows(DataException.class, () -> Inputs.read(path, 2));
        assertEquals(path + ": holds 1 samples, the run needs 2", e.getMessage());
    }

    @Test
    void rejectsNaNAndInfWithTheSampleIndex() throws IOException {
        Path nan = TestFiles.writeFloats(dir.resolve("nan.f32"), 1f, 2f, 3f, Float.NaN);
        assertEquals(nan + ": sample 1 is NaN or Inf",
                assertThrows(DataException.class, () -> Inputs.read(nan, 2)).getMessage());
        Path inf = TestFiles.writeFloats(dir.resolve("inf.f32"), Float.NEGATIVE_INFINITY, 2f);
        assertEquals(inf + ": sample 0 is NaN or Inf",
                assertThrows(DataException.class, () -> Inputs.read(inf, 1)).getMessage());
    }

    @Test
    void missingFileSaysHowToMakeIt() {
        Path path = dir.resolve("absent.f32");
        DataException e = assertThrows(DataException.class, () -> Inputs.read(path, 1));
        assertTrue(e.getMessage().startsWith(path + ": missing"), e.getMessage());
        assertEquals(path, e.path());
    }

    @Test
    void driverPrefixFollowsTheContract() {
        DataException e = new DataException(Path.of("m/x.onnx"), "broken").withDriver("java-y");
        assertEquals("java-y: error: m/x.onnx: broken", e.getMessage());
    }
}
