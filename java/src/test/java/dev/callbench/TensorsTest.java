package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files of contract version 3: the naming rule, reading every input, the reference check. */
class TensorsTest {
    @TempDir
    Path dir;

    static final Signature TWO_IN_TWO_OUT = new Signature(
            List.of(new Tensor("tokens", Dtype.INT64, new long[] {3}),
                    new Tensor("mask", Dtype.FLOAT16, new long[] {})),
            List.of(new Tensor("logits", Dtype.FLOAT32, new long[] {2}),
                    new Tensor("label", Dtype.INT64, new long[] {})));

    @Test
    void filesAreNamedByPlaceAndDtype() {
        assertEquals("inputs.f32", Tensors.tensorFile(Tensors.INPUTS_STEM, 0, Dtype.FLOAT32));
        assertEquals("inputs1.i64", Tensors.tensorFile(Tensors.INPUTS_STEM, 1, Dtype.INT64));
        assertEquals("reference2.bool", Tensors.tensorFile(Tensors.REFERENCE_STEM, 2, Dtype.BOOL));
        assertEquals("reference.f16", Tensors.tensorFile(Tensors.REFERENCE_STEM, 0, Dtype.FLOAT16));
    }

    @Test
    void tensorsSaySizesAndDescribeThemselves() {
        Tensor image = new Tensor("x", Dtype.FLOAT16, new long[] {3, 4, 5});
        assertEquals(60, image.sampleSize());
        assertEquals(120, image.sampleBytes());
        assertEquals("'x' float16 [3, 4, 5]", image.describe());
        assertEquals(List.of(7L, 3L, 4L, 5L),
                java.util.Arrays.stream(image.batchShape(7)).boxed().toList());
    }

    @Test
    void readsEveryInputsSamplesAsRawBytes() throws Exception {
        Files.write(dir.resolve("inputs.i64"), longs(1, 2, 3, 4, 5, 6));
        Files.write(dir.resolve("inputs1.f16"), new byte[] {0, 0x3C, 0, (byte) 0xC0}); // 1.0, -2.0
        List<Tensors.Samples> samples = Inputs.read(dir, TWO_IN_TWO_OUT);
        assertEquals(2, samples.get(0).count());
        assertEquals(6L, samples.get(0).bytes().getLong(40));
        assertEquals(2, samples.get(1).count());
        assertEquals((short) 0xC000, samples.get(1).bytes().getShort(2));
    }

    @Test
    void inputsOfDifferentSampleCountsNameTheFile() throws Exception {
        Files.write(dir.resolve("inputs.i64"), longs(1, 2, 3, 4, 5, 6));
        Files.write(dir.resolve("inputs1.f16"), new byte[6]);
        DataException e = assertThrows(DataException.class,
                () -> Inputs.read(dir, TWO_IN_TWO_OUT));
        assertEquals(dir.resolve("inputs1.f16"), e.path());
        assertTrue(e.getMessage().contains("holds 3 samples, inputs.i64 holds 2"), e.getMessage());
    }

    @Test
    void aPartialSampleOrANonFiniteFloatNamesTheFile() throws Exception {
        Files.write(dir.resolve("inputs.i64"), longs(1, 2, 3, 4));
        DataException partial = assertThrows(DataException.class,
                () -> Inputs.read(dir, TWO_IN_TWO_OUT));
        assertTrue(partial.getMessage().startsWith(dir.resolve("inputs.i64")
                + ": 32 bytes is not a whole number of samples of 'tokens' (24 bytes each)"),
                partial.getMessage());

        Files.write(dir.resolve("inputs.i64"), longs(1, 2, 3));
        Files.write(dir.resolve("inputs1.f16"), new byte[] {0, 0x7C}); // +Inf
        DataException inf = assertThrows(DataException.class,
                () -> Inputs.read(dir, TWO_IN_TWO_OUT));
        assertTrue(inf.getMessage().endsWith("sample 0 of 'mask' is NaN or Inf"), inf.getMessage());
    }

    @Test
    void aMissingInputFileIsNamed() {
        DataException e = assertThrows(DataException.class,
                () -> Inputs.read(dir, TWO_IN_TWO_OUT));
        assertEquals(dir.resolve("inputs.i64"), e.path());
    }

    @Test
    void referencesOfAnotherShapeFailNamingTheModel() throws Exception {
        Path model = dir.resolve("m.onnx");
        Files.write(dir.resolve("inputs.i64"), longs(1, 2, 3, 4, 5, 6)); // 2 samples
        Files.write(dir.resolve("reference.f32"), new byte[16]); // 2 x [2] float32
        Files.write(dir.resolve("reference1.i64"), new byte[16]); // 2 x [] int64
        Tensors.checkReferences(model, dir, TWO_IN_TWO_OUT);

        Files.write(dir.resolve("reference1.i64"), new byte[8]);
        DataException e = assertThrows(DataException.class,
                () -> Tensors.checkReferences(model, dir, TWO_IN_TWO_OUT));
        assertEquals(model, e.path());
        assertTrue(e.getMessage().contains("answers 'label' int64 [] a sample"), e.getMessage());
    }

    @Test
    void poisonIsWhatNoCallGives() {
        ByteBuffer floats = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        Dtype.FLOAT32.poison(floats, 0, 8);
        assertTrue(Float.isNaN(floats.getFloat(0)) && Float.isNaN(floats.getFloat(4)));
        ByteBuffer longs = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        Dtype.INT64.poison(longs, 8, 16);
        assertEquals(0L, longs.getLong(0));
        assertEquals(Long.MIN_VALUE, longs.getLong(8));
        ByteBuffer halves = ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN);
        Dtype.FLOAT16.poison(halves, 0, 2);
        assertEquals((short) 0x7E00, halves.getShort(0));
    }

    static byte[] longs(long... values) {
        ByteBuffer bytes = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asLongBuffer().put(values);
        return bytes.array();
    }
}
